// Mutation testing of the protocol's session-PUT rules and the engine's pure policies: `npm run mutation`.
// Not in CI (minutes of CPU); bench/README.md ("mutation") records the score and what became of each survivor.
// The command runner runs the unit suites of these modules in one Node process (test/client/mutation-suites.ts); two
// mutants at a time at most on this shared machine.

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: [
    'src/protocol/session-put-rules.ts',
    'src/uploader/engine/retry-policy.ts',
    'src/uploader/engine/chunk-sizer.ts',
    'src/uploader/engine/concurrency-policy.ts',
    'src/uploader/engine/progress-meter.ts',
  ],
  testRunner: 'command',
  commandRunner: { command: 'node --import tsx test/client/mutation-suites.ts' },
  coverageAnalysis: 'off',
  concurrency: 2,
  timeoutMS: 20000,
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 80, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
  // The sandbox needs only what the suites load.
  ignorePatterns: ['/*', '!/src', '!/test', '!/package.json', '!/tsconfig*.json'],
};
