// The mutation runner (scripts/mutation/, `npm run mutation`) judged on a fixture of known mutants: the full run is
// minutes of CPU and stays out of CI, this check is seconds. The fixture (test/fixtures/mutation/) has mutants its
// test kills, two it lets live, one that loops for ever and two it never reaches; a second run must judge them all
// from its cache and fail below its break threshold. Its browser lane: two mutants no node test reaches, one killed
// in the page of a web-test-runner file and one in a module worker that page starts, and one that file imports but
// never calls.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';

const ROOT = resolve(import.meta.dirname, '../..');
const out = mkdtempSync(join(tmpdir(), 'mutation-runner-'));
after(() => rmSync(out, { recursive: true, force: true }));

// The browser lane waits for the machine's browser lock (/tmp/chromium.lock), which a browser suite beside this one
// may hold for minutes: its runs themselves take seconds.
const BROWSER_WAIT_MS = 20 * 60_000;

/** Runs the runner over the fixture with a break threshold (the node lane over src/calc.ts unless told); its log. */
function run(breakAt: number, more: readonly string[] = ['--scope', 'src/calc.ts', '--lanes', 'node']) {
  const args = ['--import', 'tsx', 'scripts/mutation/main.ts', '--root', 'test/fixtures/mutation'];
  const options = ['--left-out', '', '--tests', 'test', '--out', out, '--timeout-floor', '10000'];
  const result = spawnSync(process.execPath, [...args, ...options, ...more, '--break', String(breakAt)], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: BROWSER_WAIT_MS,
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
  assert.deepEqual(places(summary.survivors), [
    'src/calc.ts:6:10 EqualityOperator n >= max',
    'src/calc.ts:11:10 StringLiteral ``',
  ]);
  assert.deepEqual(places(summary.timeouts), ['src/calc.ts:22:27 UpdateOperator i--']);
  assert.deepEqual(places(summary.uncovered), [
    'src/calc.ts:15:34 BlockStatement {}',
    'src/calc.ts:16:10 ArithmeticOperator 6 / 7',
  ]);
  assert.equal(summary.mutants, 15);
  assert.deepEqual([summary.killed, summary.timeout, summary.survived, summary.noCoverage], [10, 1, 2, 2]);
  assert.equal(summary.score, 73.3);

  // Nothing changed: every verdict comes from the cache (no test file runs again), and 73.3 % < 80 fails the run.
  const second = run(80);
  assert.equal(second.status, 1, second.log);
  assert.doesNotMatch(second.log, /coverage test\/calc\.test\.ts/);
  assert.match(second.log, /below the break threshold of 80 %/);
  assert.equal(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')).score, 73.3);
});

test(
  'the browser lane judges in Chromium what the node lane left open, in the page and in a worker',
  {
    timeout: BROWSER_WAIT_MS + 60_000,
  },
  () => {
    const lanes = ['--scope', 'src', '--lanes', 'node,browser', '--browser-tests', 'test-browser'];
    const first = run(70, lanes);
    assert.equal(first.status, 0, first.log);
    // The node lane's verdicts on src/calc.ts come from the run above: the lanes add, they do not judge again.
    assert.doesNotMatch(first.log, /\] node \d+ .*\(ran /, first.log);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    const places = (list: (Shown & { lane: string })[]): string[] =>
      list.map((m) => `${m.at} ${m.mutator} ${m.replacement} ${m.lane}`);
    assert.deepEqual(places(summary.uncovered), [
      'src/calc.ts:15:34 BlockStatement {} node',
      'src/calc.ts:16:10 ArithmeticOperator 6 / 7 node',
      'src/unseen.ts:5:46 ArithmeticOperator n + 1 node',
    ]);
    assert.deepEqual(summary.lanes, {
      node: { killed: 10, timeout: 1, survived: 2, noCoverage: 3 },
      browser: { killed: 2, timeout: 0, survived: 0, noCoverage: 0 },
    });
    assert.match(first.log, /browser \d+ killed +src\/shout\.ts:5 MethodExpression test-browser\/lanes\.test\.js/);
    assert.match(first.log, /browser \d+ killed +src\/twice\.ts:5 ArithmeticOperator test-browser\/lanes\.test\.js/);
    assert.deepEqual(summary.laneTestFiles, { browser: { used: 1, setAside: [] } });
    assert.equal(summary.score, 72.2);

    // Nothing changed: no browser run again.
    const second = run(70, lanes);
    assert.equal(second.status, 0, second.log);
    assert.doesNotMatch(second.log, /\(ran /);
    assert.deepEqual(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')).lanes, summary.lanes);
  },
);
