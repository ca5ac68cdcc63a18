// A @web/test-runner reporter beside the default one: when the run finishes it writes how many tests passed (and
// each test file's wall time, for finding slow files) as JSON to WTR_COUNT_FILE, for scripts/test-count.ts, which
// fails the stage when fewer ran than scripts/expected-test-counts.json expects. Without WTR_COUNT_FILE it does
// nothing.
import { writeFileSync } from 'node:fs';

/** @param {{ tests: { passed: boolean, skipped: boolean }[], suites: any[] } | undefined} suite */
function passedIn(suite) {
  if (!suite) return 0;
  let n = suite.tests.filter((t) => t.passed && !t.skipped).length;
  for (const child of suite.suites) n += passedIn(child);
  return n;
}

export function countReporter() {
  const file = process.env.WTR_COUNT_FILE;
  return {
    /** @param {{ sessions: { testFile: string, testResults?: any, passed?: boolean }[] }} args */
    onTestRunFinished({ sessions }) {
      if (!file) return;
      const passed = sessions.reduce((n, s) => n + passedIn(s.testResults), 0);
      writeFileSync(file, JSON.stringify({ passed, files: sessions.length }));
    },
  };
}
