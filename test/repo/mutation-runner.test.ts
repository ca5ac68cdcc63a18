// The mutation runner (scripts/mutation/, `npm run mutation`) judged on a fixture of known mutants: the full run is
// minutes of CPU and stays out of CI, this check is seconds. The fixture (test/fixtures/mutation/) has mutants its
// test kills, three it lets live (two of its mutants differ only in where they end), one that loops for ever and two it never reaches; a second run must judge them all
// from its cache and fail below its break threshold. Its browser lane is checked by test/mutation/browser-lane.test.ts,
// in the browser stage (it needs the machine's one Chromium).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';

const ROOT = resolve(import.meta.dirname, '../..');
const out = mkdtempSync(join(tmpdir(), 'mutation-runner-'));
after(() => rmSync(out, { recursive: true, force: true }));

// A run over the fixture takes seconds; a loaded machine gets room, a hang does not get CI's whole limit.
const RUN_LIMIT_MS = 5 * 60_000;
// The room a mutant's run gets beyond the test file's own time before it counts as a timeout. The endless loop waits
// it out once, so it is the test's cost; 10 s was too little in a CI run with a mutation run beside it (load 13): the
// surviving string mutant's run was cut and counted as a timeout.
const TIMEOUT_FLOOR_MS = 30_000;

/** Runs the runner's node lane over the fixture's src/calc.ts with a break threshold; its log. */
function run(breakAt: number) {
  const more = ['--scope', 'src/calc.ts', '--lanes', 'node'];
  const args = ['--import', 'tsx', 'scripts/mutation/main.ts', '--root', 'test/fixtures/mutation'];
  const options = ['--left-out', '', '--tests', 'test', '--out', out, '--timeout-floor', String(TIMEOUT_FLOOR_MS)];
  const result = spawnSync(process.execPath, [...args, ...options, ...more, '--break', String(breakAt)], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: RUN_LIMIT_MS,
  });
  return { status: result.status, log: result.stdout + result.stderr };
}

interface Shown {
  readonly at: string;
  readonly mutator: string;
  readonly replacement: string;
}

test('each mutant of the fixture is classified: killed, survived, timed out or not covered', () => {
  const first = run(70);
  assert.equal(first.status, 0, first.log);
  const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
  const places = (list: Shown[]): string[] => list.map((m) => `${m.at} ${m.mutator} ${m.replacement}`);
  // One comparison, so that a mutant in the wrong class shows where it went.
  assert.deepEqual(
    {
      survivors: places(summary.survivors),
      timeouts: places(summary.timeouts),
      uncovered: places(summary.uncovered),
    },
    {
      survivors: [
        'src/calc.ts:6:10 EqualityOperator n >= max',
        'src/calc.ts:11:10 StringLiteral ``',
        // Of the two mutants at 31:7 → `true`, the whole test's is killed and only its left side's lives.
        'src/calc.ts:31:7 ConditionalExpression true',
      ],
      timeouts: ['src/calc.ts:22:27 UpdateOperator i--'],
      uncovered: ['src/calc.ts:15:34 BlockStatement {}', 'src/calc.ts:16:10 ArithmeticOperator 6 / 7'],
    },
  );
  assert.equal(summary.mutants, 27);
  assert.deepEqual([summary.killed, summary.timeout, summary.survived, summary.noCoverage], [21, 1, 3, 2]);
  assert.equal(summary.score, 81.5);

  // Nothing changed: every verdict comes from the cache (no test file runs again), and 81.5 % < 85 fails the run.
  const second = run(85);
  assert.equal(second.status, 1, second.log);
  assert.doesNotMatch(second.log, /coverage test\/calc\.test\.ts/);
  assert.match(second.log, /below the break threshold of 85 %/);
  assert.equal(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')).score, 81.5);
});
