// `npm run mutation`: a mutation score over the code that decides whether a byte is kept (scope.ts), affordable on a
// shared 2-core machine. Every mutant of the scope is compiled into one sandbox (StrykerJS's instrumenter); one run of
// each node:test file there learns which mutants it reaches; a uniform sample of mutants (seeded) is then judged, each
// by the test files that reach it (those named like its file first, then the fastest), stopping at the first failure,
// within a budget of test time. Two at a time. Lanes (judge.ts): the node:test files judge first; what they leave
// alive or unreached, web-test-runner files judge after, in Chromium (run-browser-file.ts, browser-switch.mjs). A kill
// is kept while the mutant's file and the test file that killed it are unchanged, any other verdict while the same
// unchanged files reach it: a rerun judges only what changed.
//
//   node --import tsx scripts/mutation/main.ts [--sample 400] [--seed 39] [--break 80] [--root .] [--scope a,b]
//     [--tests test/protocol,test/server,test/client,test/compat] [--out reports/mutation] [--concurrency 2]
//     [--left-out a,b] [--timeout-floor 20000] [--budget 20] [--lanes node,browser] [--browser-tests test/browser]
//     [--at file:line:column,…]
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { coverageOf, fileHash } from './coverage.ts';
import {
  after,
  judgeIn,
  type JudgeContext,
  type Judged,
  type Lane,
  type LaneRunner,
  identity,
  stable,
  type Status,
  type Verdict,
} from './judge.ts';
import { browserLaneAvailable, runBrowserFile } from './run-browser-file.ts';
import { runFile } from './run-file.ts';
import { draw, margin95 } from './sample.ts';
import { instrument, writeSandbox } from './sandbox.ts';
import { filesUnder, LEFT_OUT, SCOPE, scopeFiles, scopeShare } from './scope.ts';

const { values } = parseArgs({
  options: {
    sample: { type: 'string', default: '400' },
    seed: { type: 'string', default: '39' },
    break: { type: 'string', default: '80' },
    root: { type: 'string', default: '.' },
    scope: { type: 'string' },
    'left-out': { type: 'string' },
    tests: { type: 'string', default: 'test/protocol,test/server,test/client,test/compat' },
    out: { type: 'string', default: 'reports/mutation' },
    concurrency: { type: 'string', default: '2' },
    'timeout-floor': { type: 'string', default: '20000' },
    budget: { type: 'string', default: '20' },
    lanes: { type: 'string' },
    at: { type: 'string' },
    'browser-tests': { type: 'string', default: 'test/browser' },
  },
});

const root = resolve(values.root);
const out = resolve(root, values.out);
const started = new Date();
const log = (line: string): void => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

const patterns = values.scope?.split(',') ?? SCOPE;
const leftOut = values['left-out'] === undefined ? LEFT_OUT : values['left-out'].split(',').filter(Boolean);
const files = scopeFiles(root, patterns, leftOut);
const share = scopeShare(root, files);
log(`scope: ${files.length} files, ${share.scope} of ${share.total} lines (${(share.share * 100).toFixed(1)} %)`);

const { texts, mutants } = await instrument(root, files);
const sandbox = join(
  tmpdir(),
  `store-upload-kit-mutation-${createHash('sha256').update(root).digest('hex').slice(0, 8)}`,
);
writeSandbox(root, sandbox, texts);
log(`${mutants.length} mutants instrumented into ${sandbox}`);

const cluster = 'cluster: not built yet (test/cluster needs PostgreSQL started for the run)';
const unavailable: Partial<Record<Lane, string>> = { browser: browserLaneAvailable(sandbox), cluster };
const asked = values.lanes?.split(',').filter(Boolean) as Lane[] | undefined;
for (const lane of asked ?? []) {
  if (!['node', 'browser', 'cluster'].includes(lane)) throw new Error(`--lanes: no lane "${lane}" (node, browser)`);
  if (unavailable[lane] !== undefined) throw new Error(`--lanes: the ${lane} lane cannot run: ${unavailable[lane]}`);
}
const lanes = asked ?? (['node', 'browser', 'cluster'] as const).filter((lane) => unavailable[lane] === undefined);
for (const lane of ['browser', 'cluster'] as const) {
  if (asked === undefined && unavailable[lane] !== undefined) log(`${lane} lane off: ${unavailable[lane]}`);
}
log(`lanes: ${lanes.join(', ')}`);

/**
 * The test files of `dirs` (names ending in `suffixes`) and the helpers beside them. The node lane's lists stay those
 * of the runner before the lanes (`.ts` only), so that its coverage cache keeps its keys.
 */
function testsOf(dirs: string, suffixes: readonly string[], lane: Lane): { tests: string[]; helpers: string[] } {
  const extensions = lane === 'node' ? ['.ts'] : ['.ts', '.js', '.mjs'];
  const all = dirs.split(',').flatMap((dir) => filesUnder(root, dir, extensions));
  const isTest = (f: string): boolean => suffixes.some((s) => f.endsWith(s));
  return { tests: all.filter(isTest), helpers: all.filter((f) => !isTest(f)) };
}

/** What a lane's coverage depends on besides the test file itself: the scope's text and the helpers'. */
const keyOf = (helpers: readonly string[]): string =>
  createHash('sha256')
    .update([...files, ...helpers].map((f) => `${f}:${fileHash(root, f)}`).join('\n'))
    .digest('hex');

mkdirSync(out, { recursive: true });

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
// Ordered by `stable`, as the draws of runs before `identity` were; mutants that share it by where they end.
const ordered = [...mutants].sort((a, b) => compare(stable(a), stable(b)) || compare(identity(a), identity(b)));
const sampleSize = Number(values.sample);
// `--at file:line:column,…` judges the mutants at those places instead of a sample (a trial, an answer checked).
const places = values.at?.split(',').filter(Boolean);
const sample =
  places === undefined
    ? draw(ordered, sampleSize, Number(values.seed))
    : ordered.filter((m) => places.includes(`${m.file}:${m.line}:${m.column}`));

const cacheFile = join(out, 'results.json');
const context: JudgeContext = {
  root,
  sandbox,
  cache: (existsSync(cacheFile) ? JSON.parse(readFileSync(cacheFile, 'utf8')) : {}) as Record<string, Verdict>,
  cacheFile,
  budget: Number(values.budget) * 1000,
  floor: Number(values['timeout-floor']),
};
const setAside: Partial<Record<Lane, string[]>> = {};
const usedFiles: Partial<Record<Lane, number>> = {};

/** A lane's usable test files: each run once with no mutant on; one that fails then is set aside. */
async function prepare(lane: Lane, dirs: string, suffixes: string[], run: typeof runFile): Promise<LaneRunner> {
  const { tests, helpers } = testsOf(dirs, suffixes, lane);
  const cacheName = lane === 'node' ? 'coverage.json' : `${lane}-coverage.json`;
  const coverage = await coverageOf({
    root,
    sandbox,
    files: tests,
    scopeKey: keyOf(helpers),
    cacheFile: join(out, cacheName),
    log: (line) => log(lane === 'node' ? line : `${lane} ${line}`),
    run,
  });
  const usable = coverage.filter((c) => c.outcome === 'pass').sort((a, b) => a.ms - b.ms);
  const aside = coverage.filter((c) => c.outcome !== 'pass');
  for (const c of aside) log(`${lane}: set aside (${c.outcome} with no mutant on): ${c.file}\n${c.tail ?? ''}`);
  setAside[lane] = aside.map((c) => c.file);
  usedFiles[lane] = usable.length;
  return { lane, usable, run };
}

// Every mutant starts unreached; each lane judges those the lanes before it left alive.
const judged: Judged[] = sample.map((m) => ({ ...m, status: 'no coverage', tests: 0, covering: 0, lane: 'node' }));
const open = (j: Judged): boolean => j.status === 'survived' || j.status === 'no coverage';
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
let done = 0;

/** Judges the open mutants of the sample in `runner`'s lane, `concurrency` at a time. */
async function judgeLane(runner: LaneRunner, concurrency: number): Promise<void> {
  const todo = judged.map((_, i) => i).filter((i) => open(judged[i]));
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < todo.length) {
        const i = todo[next++];
        const begun = Date.now();
        const { verdict, cached, ranMs } = await judgeIn(context, runner, judged[i]);
        const j = (judged[i] = after(judged[i], verdict, runner.lane));
        const wall = seconds(Date.now() - begun);
        const took = cached ? 'cached' : verdict.covering === 0 ? 'not reached' : `ran ${seconds(ranMs)} of ${wall}`;
        log(`${runner.lane} ${++done} ${j.status.padEnd(11)} ${j.file}:${j.line} ${j.mutator} ${j.by ?? ''} (${took})`);
      }
    }),
  );
}

if (lanes.includes('node')) {
  const runner = await prepare('node', values.tests, ['.test.ts'], runFile);
  await judgeLane(runner, Number(values.concurrency));
}
// One Chromium at a time machine-wide: the browser lane judges one mutant at a time, and only if one is left open
// (its coverage run is the lane's largest cost).
if (lanes.includes('browser') && judged.some(open)) {
  const runner = await prepare('browser', values['browser-tests'], ['.test.ts', '.test.js'], runBrowserFile);
  done = 0;
  await judgeLane(runner, 1);
}

const count = (s: Status): number => judged.filter((j) => j.status === s).length;
const killed = count('killed');
const timeout = count('timeout');
const survived = count('survived');
const noCoverage = count('no coverage');
const detected = (killed + timeout) / judged.length;
const score = Math.round(detected * 1000) / 10;
const byPlace = (a: Judged, b: Judged): number => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1);
const show = (j: Judged): object => ({
  at: `${j.file}:${j.line}:${j.column}`,
  mutator: j.mutator,
  original: j.original.length > 160 ? `${j.original.slice(0, 157)}...` : j.original,
  replacement: j.replacement.length > 160 ? `${j.replacement.slice(0, 157)}...` : j.replacement,
  tests: `${j.tests} of ${j.covering}`,
  lane: j.lane,
});
/** Each lane's share of the verdicts: those it decided (a lane that reached a mutant has the last word on it). */
const byLane = Object.fromEntries(
  lanes.map((lane) => {
    const of = (s: Status): number => judged.filter((j) => j.lane === lane && j.status === s).length;
    return [
      lane,
      { killed: of('killed'), timeout: of('timeout'), survived: of('survived'), noCoverage: of('no coverage') },
    ];
  }),
);
const summary = {
  date: started.toISOString(),
  minutes: Math.round((Date.now() - started.getTime()) / 6000) / 10,
  scope: { patterns, leftOut, files: files.length, lines: share.scope, ofLines: share.total, share: share.share },
  mutants: mutants.length,
  sample: { size: judged.length, seed: Number(values.seed) },
  killed,
  timeout,
  survived,
  noCoverage,
  // StrykerJS's mutation score: killed and timed out over every mutant judged, uncovered ones included.
  score,
  scoreKilledOnly: Math.round((killed / judged.length) * 1000) / 10,
  margin95: Math.round(margin95(detected, judged.length, mutants.length) * 1000) / 10,
  break: Number(values.break),
  budgetSeconds: context.budget / 1000,
  lanes: byLane,
  // The node lane's as before the lanes; the others' by lane.
  testFiles: { used: usedFiles.node ?? 0, setAside: setAside.node ?? [] },
  laneTestFiles: Object.fromEntries(
    lanes.filter((l) => l !== 'node').map((l) => [l, { used: usedFiles[l] ?? 0, setAside: setAside[l] ?? [] }]),
  ),
  survivors: judged
    .filter((j) => j.status === 'survived')
    .sort(byPlace)
    .map(show),
  uncovered: judged
    .filter((j) => j.status === 'no coverage')
    .sort(byPlace)
    .map(show),
  timeouts: judged
    .filter((j) => j.status === 'timeout')
    .sort(byPlace)
    .map(show),
};
writeFileSync(join(out, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
log(
  `score ${score} % ± ${summary.margin95} (killed ${killed}, timeout ${timeout}, survived ${survived}, ` +
    `no coverage ${noCoverage} of ${judged.length}); ${join(out, 'summary.json')}`,
);
if (score < summary.break) {
  log(`below the break threshold of ${summary.break} %`);
  process.exitCode = 1;
}
