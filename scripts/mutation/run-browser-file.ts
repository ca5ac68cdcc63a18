// Runs one web-test-runner file in the sandbox, in real Chromium, with a mutant switched on in its page and workers or
// none, holding the machine's browser lock (/tmp/chromium.lock) while it runs. The time (and the timeout) counts from
// when the lock is held: another engineer's browser suite is not the mutant's.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FileRun, RunOptions } from './run-file.ts';

const CONFIG = join(import.meta.dirname, 'wtr.config.mjs');
const LOCK = process.env.CHROMIUM_LOCK ?? '/tmp/chromium.lock';
const LOCKED = '__mutation_lock_held__';

/** Whether this machine can run the browser lane in `sandbox`: a Chromium, a web-test-runner config, flock. */
export function browserLaneAvailable(sandbox: string): string | undefined {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromium)) return `no Chromium at ${chromium}`;
  if (!existsSync(join(sandbox, 'web-test-runner.config.js'))) return 'no web-test-runner.config.js';
  if (!existsSync(join(sandbox, 'node_modules/.bin/web-test-runner'))) return 'no web-test-runner installed';
  return undefined;
}

/** Runs the web-test-runner `file` as the browser suite runs it and says how it ended. */
export function runBrowserFile(options: RunOptions): Promise<FileRun> {
  const mark = randomUUID();
  const env: NodeJS.ProcessEnv = { ...process.env, MUTATION_WTR_FILE: options.file, MUTATION_RUN_MARK: mark };
  // The service the suite starts runs unmutated: this lane judges the code the page and its workers run.
  delete env.__STRYKER_ACTIVE_MUTANT__;
  delete env.NODE_TEST_CONTEXT;
  delete env.NODE_OPTIONS;
  delete env.MUTATION_BROWSER_MUTANT;
  delete env.MUTATION_COVERAGE_DIR;
  if (options.mutant !== undefined) env.MUTATION_BROWSER_MUTANT = options.mutant;
  if (options.coverageDir !== undefined) env.MUTATION_COVERAGE_DIR = options.coverageDir;
  const wtr = join(options.sandbox, 'node_modules/.bin/web-test-runner');
  const script = `echo ${LOCKED} >&2; exec "$0" "$@"`;
  const child = spawn('flock', [LOCK, 'sh', '-c', script, wtr, '--config', CONFIG, '--static-logging'], {
    cwd: options.sandbox,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let started = Date.now();
  let tail = '';
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  const keep = (chunk: Buffer): void => {
    const text = chunk.toString('utf8');
    if (timer === undefined && text.includes(LOCKED)) {
      started = Date.now();
      timer = setTimeout(() => {
        timedOut = true;
        end(child.pid, mark);
      }, options.timeoutMs);
    }
    tail = (tail + text.replace(`${LOCKED}\n`, '')).slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  return new Promise((resolve) => {
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ outcome: 'fail', ms: Date.now() - started, tail: String(error) });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      end(child.pid, mark);
      const outcome = timedOut ? 'timeout' : code === 0 ? 'pass' : 'fail';
      resolve({ outcome, ms: Date.now() - started, tail });
    });
  });
}

/** Ends the run's process group and the Chromium processes carrying its mark (they are in groups of their own). */
function end(pid: number | undefined, mark: string): void {
  if (pid !== undefined) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(mark)) process.kill(Number(entry), 'SIGKILL');
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
}
