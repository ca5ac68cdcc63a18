// Preloaded by the Node runner scripts (`--import ./test/per-test-timeout.mjs`): every `test` and `it` without a
// `timeout` of its own gets one of 5 minutes (TEST_TIMEOUT_MS), so a hang fails in minutes and names the test. Node
// 20's `--test-timeout` cannot do it: with `--test` it also bounds each file as a whole, and a file of many tests
// legitimately runs longer than one of them may. Suites (`describe`) keep no limit of their own. Plain JavaScript:
// worker threads inherit the preloads, and in a worker tsx's loader is not yet in place for a second `--import`
// (the service's OCR workers failed with "Unknown file extension .ts").
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
