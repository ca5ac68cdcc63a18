// A focused test (`.only`) must fail `npm run lint` in every kind of test file: node:test suites, web-test-runner's
// mocha suites, Playwright specs (the e2e and the consumers' ones) and Storybook's stories. A later block of
// eslint.config.js that set `no-restricted-syntax` again for some files would silently drop the rule there: this
// reads the configuration ESLint computes for each test file and lints planted `.only` forms with that very rule.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { ESLint, Linter } from 'eslint';
import tseslint from 'typescript-eslint';

const ROOT = new URL('../..', import.meta.url).pathname;

/** Every test file of the repository, by kind, as git knows them (the fixture apps excepted: they are not linted). */
function testFiles(): string[] {
  const out = execFileSync('git', ['ls-files', 'test/*.test.ts', 'test/*.spec.ts', 'stories/*.stories.ts'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return out.split('\n').filter((f) => f !== '' && !f.startsWith('test/consumers/apps/'));
}

/** One file of each kind of test; each must exist, so a moved folder fails here instead of testing nothing. */
const KINDS: Record<string, RegExp> = {
  'node:test': /^test\/server\/.+\.test\.ts$/,
  'web-test-runner (mocha)': /^test\/browser\/.+\.test\.ts$/,
  'Playwright e2e': /^test\/e2e\/.+\.spec\.ts$/,
  'Playwright consumers': /^test\/consumers\/[^/]+\.spec\.ts$/,
  'Storybook story': /^stories\/.+\.stories\.ts$/,
};

const PLANTED = [
  "test.only('planted', () => {});",
  "it.only('planted', () => {});",
  "describe.only('planted', () => {});",
  "suite.only('planted', () => {});",
  "test.describe.only('planted', () => {});",
  "test.describe.serial.only('planted', () => {});",
  "test('planted', { only: true }, () => {});",
];

type RuleEntry = Linter.RuleEntry;

test('every test file is linted with the rule that refuses a focused test', async () => {
  const eslint = new ESLint({ cwd: ROOT });
  const files = testFiles();
  for (const [kind, re] of Object.entries(KINDS)) {
    assert.ok(
      files.some((f) => re.test(f)),
      `no ${kind} file found`,
    );
  }
  const missing: string[] = [];
  for (const file of files) {
    const config = (await eslint.calculateConfigForFile(file)) as { rules?: Record<string, RuleEntry> };
    const entry = config.rules?.['no-restricted-syntax'];
    if (!JSON.stringify(entry ?? []).includes('narrows the run to itself')) missing.push(file);
  }
  assert.deepEqual(missing, [], 'test files linted without the focused-test rule');
});

test('a planted .only in a file of each kind fails lint', async () => {
  const eslint = new ESLint({ cwd: ROOT });
  const files = testFiles();
  const linter = new Linter({ configType: 'flat' });
  for (const [kind, re] of Object.entries(KINDS)) {
    const file = files.find((f) => re.test(f))!;
    const config = (await eslint.calculateConfigForFile(file)) as { rules?: Record<string, RuleEntry> };
    const rule = config.rules?.['no-restricted-syntax'];
    assert.ok(rule, `${kind} (${file}): no no-restricted-syntax rule`);
    // The file's own text, then the planted line: the rule as configured for that file must report exactly it.
    const source = readFileSync(ROOT + file, 'utf8');
    const lines = source.split('\n').length;
    for (const planted of PLANTED) {
      const messages = linter.verify(
        `${source}\n${planted}\n`,
        [
          {
            files: ['**/*.ts'],
            languageOptions: { parser: tseslint.parser },
            rules: { 'no-restricted-syntax': rule },
          },
        ],
        file,
      );
      const focused = messages.filter((m) => m.line > lines && /focused test/.test(m.message));
      assert.equal(focused.length, 1, `${kind} (${file}): "${planted}" was not refused: ${JSON.stringify(messages)}`);
    }
    // And the file as it is has none.
    const clean = linter.verify(
      source,
      [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, rules: { 'no-restricted-syntax': rule } }],
      file,
    );
    assert.deepEqual(
      clean.filter((m) => /focused test/.test(m.message)),
      [],
    );
  }
});
