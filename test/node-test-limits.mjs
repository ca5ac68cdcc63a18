// Preloaded by the Node runner scripts (`--import ./test/node-test-limits.mjs`): the limits of a Node test run.
// - Every `test` and `it` without a `timeout` of its own gets one of 5 minutes (TEST_TIMEOUT_MS), so a hang fails in
//   minutes and names the test. Node 20's `--test-timeout` cannot do it: with `--test` it also bounds each file as a
//   whole, and a file of many tests legitimately runs longer than one of them may. Suites (`describe`) keep no limit.
// - A test file whose process is still alive 60 s after its last test (FILE_LINGER_MS; the file's own `after` hooks
//   run within it: the limit's hook is the first registered) fails, naming the file: a server, socket or timer left
//   open. This replaces `--test-force-exit`, which ended each file's process before its
//   results had all reached the runner: the runner then counted fewer tests, at random, and still passed
//   (nodejs/node#64833; CI counted 1,296 of 1,307 tests, all green).
// Plain JavaScript: worker threads inherit the preloads, and in a worker tsx's loader is not yet in place for a second
// `--import` (the service's OCR workers failed with "Unknown file extension .ts").
import { isMainThread } from 'node:worker_threads';
import { createRequire, syncBuiltinESMExports } from 'node:module';

const require = createRequire(import.meta.url);
/** @type {{ test: (...args: unknown[]) => unknown; it: (...args: unknown[]) => unknown }} */
const nodeTest = require('node:test');
const LIMIT_MS = Number(process.env.TEST_TIMEOUT_MS ?? 300_000);

/**
 * `test(name?, options?, fn?)` with `timeout` added to the options unless they name one.
 * @param {(...args: unknown[]) => unknown} original
 * @returns {(...args: unknown[]) => unknown}
 */
function limited(original) {
  /** @param {unknown[]} args */
  const wrapped = (...args) => {
    const name = typeof args[0] === 'string' ? args.shift() : undefined;
    const options = typeof args[0] === 'object' && args[0] !== null ? /** @type {object} */ (args.shift()) : {};
    return original(name, { timeout: LIMIT_MS, ...options }, ...args);
  };
  // test.skip, test.todo, test.only and the rest stay as they were.
  return Object.assign(wrapped, original);
}

nodeTest.test = limited(nodeTest.test);
nodeTest.it = limited(nodeTest.it);
syncBuiltinESMExports();

// Only in a test file's own process: the runner's (`node --test` itself) runs no tests, and a worker is not a file.
if (isMainThread && process.env.NODE_TEST_CONTEXT !== undefined) {
  const lingerMs = Number(process.env.FILE_LINGER_MS ?? 60_000);
  nodeTest.after(() => {
    // Unref'd: a file that closes what it opened exits at once, and this never fires.
    setTimeout(() => {
      process.stderr.write(
        `${process.argv[1]}: still running ${lingerMs} ms after its last test, held by: ${process
          .getActiveResourcesInfo()
          .filter((what) => what !== 'Timeout')
          .join(', ')}\n`,
      );
      process.exit(1);
    }, lingerMs).unref();
  });
}
