// The mutation runner's browser lane (scripts/mutation/, `npm run mutation -- --lanes node,browser`) judged on the
// fixture (test/fixtures/mutation/): two mutants no node test reaches, one killed in the page of a web-test-runner
// file and one in a module worker that page starts, and one that file imports but never calls. It runs in the browser
// stage (scripts/test-browser.sh), not with the node suites: each of its web-test-runner runs takes the machine's one
// Chromium (/tmp/chromium.lock), which the node lane must never wait for.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';

const ROOT = resolve(import.meta.dirname, '../..');
const out = mkdtempSync(join(tmpdir(), 'mutation-browser-lane-'));
after(() => rmSync(out, { recursive: true, force: true }));

// The lock may be held by a browser suite of the node lane's cluster stage for minutes: its runs take seconds.
const BROWSER_WAIT_MS = 20 * 60_000;
// A mutant's run gets this long beyond its file's own time before it counts as a timeout (the endless loop waits it
// out once). 10 s was too little in a CI run with a mutation run beside it (load 13): a killed mutant's run was cut.
const TIMEOUT_FLOOR_MS = 30_000;

/** Runs the runner over the fixture with a break threshold and these arguments; its log. */
function run(breakAt: number, more: readonly string[]) {
  const args = ['--import', 'tsx', 'scripts/mutation/main.ts', '--root', 'test/fixtures/mutation'];
  const options = ['--left-out', '', '--tests', 'test', '--out', out, '--timeout-floor', String(TIMEOUT_FLOOR_MS)];
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
  readonly lane: string;
}

test(
  'the browser lane judges in Chromium what the node lane left open, in the page and in a worker',
  {
    timeout: BROWSER_WAIT_MS + 60_000,
  },
  () => {
    const lanes = ['--scope', 'src', '--lanes', 'node,browser', '--browser-tests', 'test-browser'];
    // The node lane first, over the whole fixture, as a run with `--lanes node` leaves it.
    const node = run(0, ['--scope', 'src', '--lanes', 'node']);
    assert.equal(node.status, 0, node.log);
    const first = run(70, lanes);
    assert.equal(first.status, 0, first.log);
    // The node lane's verdicts come from the run above: the lanes add, they do not judge again.
    assert.doesNotMatch(first.log, /\] node \d+ .*\(ran /, first.log);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    const places = (list: Shown[]): string[] => list.map((m) => `${m.at} ${m.mutator} ${m.replacement} ${m.lane}`);
    assert.deepEqual(places(summary.uncovered), [
      'src/calc.ts:15:34 BlockStatement {} node',
      'src/calc.ts:16:10 ArithmeticOperator 6 / 7 node',
      'src/unseen.ts:5:46 ArithmeticOperator n + 1 node',
    ]);
    assert.deepEqual(summary.lanes, {
      node: { killed: 21, timeout: 1, survived: 3, noCoverage: 3 },
      browser: { killed: 2, timeout: 0, survived: 0, noCoverage: 0 },
    });
    assert.match(first.log, /browser \d+ killed +src\/shout\.ts:5 MethodExpression test-browser\/lanes\.test\.js/);
    assert.match(first.log, /browser \d+ killed +src\/twice\.ts:5 ArithmeticOperator test-browser\/lanes\.test\.js/);
    assert.deepEqual(summary.laneTestFiles, { browser: { used: 1, setAside: [] } });
    assert.equal(summary.score, 80);

    // Nothing changed: no browser run again.
    const second = run(70, lanes);
    assert.equal(second.status, 0, second.log);
    assert.doesNotMatch(second.log, /\(ran /);
    assert.deepEqual(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')).lanes, summary.lanes);
  },
);
