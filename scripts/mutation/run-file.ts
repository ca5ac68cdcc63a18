// Runs one node:test file in the sandbox, with a mutant switched on or none, in a process group of its own that a
// timeout ends as a whole (the services the file spawned with it).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** How one run of a test file ended. */
export interface FileRun {
  readonly outcome: 'pass' | 'fail' | 'timeout';
  readonly ms: number;
  /** The end of its output, to show why it failed. */
  readonly tail: string;
}

/** Options of {@link runFile}. */
export interface RunOptions {
  readonly sandbox: string;
  readonly file: string;
  readonly timeoutMs: number;
  /** The mutant to switch on; none for the coverage run. */
  readonly mutant?: string;
  /** Where the coverage hook writes what each process reached (the coverage run only). */
  readonly coverageDir?: string;
}

const HOOK = join(import.meta.dirname, 'coverage-hook.mjs');

/** Runs `file` as scripts/test-node.sh runs it and says how it ended. */
export function runFile(options: RunOptions): Promise<FileRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, STORE_KIT_FROM_SOURCE: '1', NODE_OPTIONS: `--import ${HOOK}` };
  // Started from inside a node:test file (the runner's own check), the nested runner would report to that one.
  delete env.NODE_TEST_CONTEXT;
  delete env.__STRYKER_ACTIVE_MUTANT__;
  delete env.MUTATION_COVERAGE_DIR;
  if (options.mutant !== undefined) env.__STRYKER_ACTIVE_MUTANT__ = options.mutant;
  if (options.coverageDir !== undefined) env.MUTATION_COVERAGE_DIR = options.coverageDir;
  // The repository's per-test limit where the sandbox has it (a fixture may not).
  const limit = existsSync(join(options.sandbox, 'test/node-test-limits.mjs'))
    ? ['--import', './test/node-test-limits.mjs']
    : [];
  // Force-exit here, unlike the stages (scripts/node-tests.sh): a verdict is the exit code, which it keeps, and a
  // mutant that leaves a handle open must not cost the file's linger limit.
  const args = ['--import', 'tsx', ...limit, '--test', '--test-force-exit'];
  const child = spawn(process.execPath, [...args, '--test-concurrency=1', options.file], {
    cwd: options.sandbox,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const started = Date.now();
  let tail = '';
  const keep = (chunk: Buffer): void => {
    tail = (tail + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  return new Promise((resolve) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ outcome: 'fail', ms: Date.now() - started, tail: String(error) });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      // Whatever the file left running (a service a failed test did not stop) goes with it.
      killGroup(child.pid);
      const outcome = timedOut ? 'timeout' : code === 0 ? 'pass' : 'fail';
      resolve({ outcome, ms: Date.now() - started, tail });
    });
  });
}

/** Ends the process group led by `pid`, if any is left. */
function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
