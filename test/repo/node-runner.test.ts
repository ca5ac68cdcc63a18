// The Node stages' runner (`node_test_run` in scripts/node-tests.sh) counts every test a file runs, and a file that
// does not exit after its tests fails instead of holding the run. With `--test-force-exit` the runner counted fewer
// tests than ran, at random, and passed: 1,296 of 1,307 in one CI run, all green, so the stage's floor failed it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('../..', import.meta.url).pathname;

/** Runs `files` as the Node stages do, outside this test's own runner (whose context a child would inherit). */
function runLikeTheStages(files: string[], env: Record<string, string> = {}) {
  const { NODE_TEST_CONTEXT: _, ...outer } = process.env;
  const run = spawnSync(
    'bash',
    ['-c', 'source scripts/node-tests.sh && node_test_run --test-reporter=tap "$@"', '_', ...files],
    { cwd: ROOT, env: { ...outer, ...env }, encoding: 'utf8', timeout: 120_000, maxBuffer: 64 * 1024 * 1024 },
  );
  const count = (name: string) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(run.stdout)?.[1]);
  return { status: run.status, tests: count('tests'), pass: count('pass'), fail: count('fail'), out: run.stdout };
}

test('every test of many files of many quick tests is counted (force-exit lost some in most such runs)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'node-runner-'));
  try {
    const body = ["const { test } = require('node:test');"];
    for (let i = 0; i < 2000; i++) body.push(`test('t${i}', () => {});`);
    const files = Array.from({ length: 8 }, (_, k) => join(dir, `many-${k}.test.cjs`));
    for (const file of files) writeFileSync(file, body.join('\n'));
    const run = runLikeTheStages(files);
    assert.equal(run.status, 0);
    assert.deepEqual([run.tests, run.pass, run.fail], [16_000, 16_000, 0]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a file that leaves a server open after its tests fails, named, instead of holding the run', () => {
  const dir = mkdtempSync(join(tmpdir(), 'node-runner-'));
  try {
    const file = join(dir, 'leaves-open.test.cjs');
    writeFileSync(
      file,
      "const { test } = require('node:test'); test('opens', () => { require('node:net').createServer().listen(0); });",
    );
    const run = runLikeTheStages([file], { FILE_LINGER_MS: '500' });
    assert.equal(run.status, 1);
    assert.equal(run.fail, 1);
    assert.match(run.out, /leaves-open\.test\.cjs: still running 500 ms after its last test, held by: .*TCPServerWrap/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
