/**
 * The guard against a narrowed run: `node --import tsx scripts/test-count.ts STAGE FORMAT FILE` reads how many tests a
 * stage of scripts/test.sh passed from its runner's report in FILE and fails when that is fewer than the stage's
 * floor in scripts/expected-test-counts.json. A file glob that lost a folder, a suite list that lost a line, a skip
 * or a filter that matches less all pass every test they still run: only the count shows what went missing.
 *
 * FORMAT is the runner's report: `tap` (node:test's TAP or spec output, its `pass N` summary), `playwright` (the
 * JSON reporter's file), `vitest` (vitest's JSON reporter's file), `wtr` (scripts/wtr-count-reporter.js's file:
 * `{"passed": N}`), `smoke` (test/other-browsers' last line, `N passed, N failed`).
 */
import { readFileSync } from 'node:fs';

const EXPECTED_FILE = 'scripts/expected-test-counts.json';

/** Tests passed according to a report in `format`; throws when the report holds no count (no summary = no run). */
export function passedIn(format: string, report: string): number {
  const last = (re: RegExp): number => {
    const all = [...report.matchAll(re)];
    const m = all[all.length - 1];
    if (!m) throw new Error(`no ${format} summary found`);
    return Number(m[1]);
  };
  switch (format) {
    case 'tap':
      // TAP ends in `# pass N`; the spec reporter (a terminal) in `ℹ pass N`.
      return last(/^(?:# |ℹ )pass (\d+)$/gmu);
    case 'smoke':
      return last(/^(\d+) passed, \d+ failed$/gm);
    case 'playwright': {
      const stats = (JSON.parse(report) as { stats?: { expected?: number; flaky?: number } }).stats;
      if (stats?.expected === undefined) throw new Error('no stats in the Playwright JSON report');
      return stats.expected + (stats.flaky ?? 0);
    }
    case 'vitest': {
      const n = (JSON.parse(report) as { numPassedTests?: number }).numPassedTests;
      if (n === undefined) throw new Error('no numPassedTests in the vitest JSON report');
      return n;
    }
    case 'wtr': {
      const n = (JSON.parse(report) as { passed?: number }).passed;
      if (n === undefined) throw new Error('no count in the web-test-runner count file');
      return n;
    }
    default:
      throw new Error(`unknown report format ${format} (tap, playwright, vitest, wtr, smoke)`);
  }
}

/** The floor for `stage`; throws when the file has none (a new stage must add its line). */
export function expectedFor(stage: string, file = EXPECTED_FILE): number {
  const floors = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const n = floors[stage];
  if (typeof n !== 'number') throw new Error(`${file} has no count for the stage "${stage}"`);
  return n;
}

if (import.meta.filename === process.argv[1]) {
  const [stage, format, file] = process.argv.slice(2);
  if (!stage || !format || !file) {
    console.error('usage: test-count.ts STAGE FORMAT REPORT_FILE');
    process.exit(2);
  }
  let ran: number;
  let expected: number;
  try {
    expected = expectedFor(stage);
    ran = passedIn(format, readFileSync(file, 'utf8'));
  } catch (e) {
    console.error(`test count: ${stage}: ${(e as Error).message}`);
    process.exit(1);
  }
  if (ran < expected) {
    console.error(
      `test count: ${stage} passed ${ran} tests, fewer than the ${expected} expected (${EXPECTED_FILE}): ` +
        'a narrowed file list or glob, a skip or a filter? (If tests were removed on purpose, lower the floor.)',
    );
    process.exit(1);
  }
  console.log(`test count: ${stage} passed ${ran} tests (at least ${expected} expected)`);
}
