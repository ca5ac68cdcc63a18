// `npm run mutation`: a mutation score over the code that decides whether a byte is kept (scope.ts), affordable on a
// shared 2-core machine. Every mutant of the scope is compiled into one sandbox (StrykerJS's instrumenter); one run of
// each node:test file there learns which mutants it reaches; a uniform sample of mutants (seeded) is then judged, each
// by the test files that reach it (those named like its file first, then the fastest), stopping at the first failure,
// within a budget of test time. Two at a time. A kill is kept while the mutant's file and the test file that killed it
// are unchanged, any other verdict while the same unchanged files reach it: a rerun judges only what changed.
//
//   node --import tsx scripts/mutation/main.ts [--sample 400] [--seed 39] [--break 80] [--root .] [--scope a,b]
//     [--tests test/protocol,test/server,test/client,test/compat] [--out reports/mutation] [--concurrency 2]
//     [--left-out a,b] [--timeout-floor 20000] [--budget 20]
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { coverageOf, fileHash, type FileCoverage } from './coverage.ts';
import { runFile } from './run-file.ts';
import { draw, margin95 } from './sample.ts';
import { instrument, type MutantInfo, writeSandbox } from './sandbox.ts';
import { LEFT_OUT, SCOPE, scopeFiles, scopeShare, tsFiles } from './scope.ts';

type Status = 'killed' | 'survived' | 'timeout' | 'no coverage';

interface Judged extends MutantInfo {
  readonly status: Status;
  /** The test file that killed it or timed out on it; for a survivor, how many files ran. */
  readonly by?: string;
  readonly tests: number;
  /** How many test files reach it. */
  readonly covering: number;
}

/** A verdict as the cache keeps it (by the mutant's place and its file's text). */
interface Verdict extends Omit<Judged, keyof MutantInfo> {
  /** The budget (ms) it was judged with. */
  readonly budget: number;
  /** The text hashes of the test files that reached it. */
  readonly seen: Record<string, string>;
}

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

const testFiles = values.tests.split(',').flatMap((dir) => tsFiles(root, dir).filter((f) => f.endsWith('.test.ts')));
const helpers = values.tests.split(',').flatMap((dir) => tsFiles(root, dir).filter((f) => !f.endsWith('.test.ts')));
const scopeKey = createHash('sha256')
  .update([...files, ...helpers].map((f) => `${f}:${fileHash(root, f)}`).join('\n'))
  .digest('hex');
mkdirSync(out, { recursive: true });
const coverage = await coverageOf({
  root,
  sandbox,
  files: testFiles,
  scopeKey,
  cacheFile: join(out, 'coverage.json'),
  log,
});
const usable = coverage.filter((c) => c.outcome === 'pass').sort((a, b) => a.ms - b.ms);
const setAside = coverage.filter((c) => c.outcome !== 'pass');
for (const c of setAside) log(`set aside (${c.outcome} with no mutant on): ${c.file}\n${c.tail ?? ''}`);

const stable = (m: MutantInfo): string => `${m.file}:${m.line}:${m.column}:${m.mutator}:${m.replacement}`;
const ordered = [...mutants].sort((a, b) => (stable(a) < stable(b) ? -1 : 1));
const sampleSize = Number(values.sample);
const sample = draw(ordered, sampleSize, Number(values.seed));

const cacheFile = join(out, 'results.json');
const cache = (existsSync(cacheFile) ? JSON.parse(readFileSync(cacheFile, 'utf8')) : {}) as Record<string, Verdict>;

const floor = Number(values['timeout-floor']);

const budget = Number(values.budget) * 1000;

/** Words of a path that can tie a test file to a source file (`resumable-put.ts` → resumable, put). */
const words = (path: string): Set<string> =>
  new Set(path.split(/[/.-]/).filter((w) => w.length > 2 && !['test', 'src', 'server', 'index'].includes(w)));

/** The test files that reach `m`: those named like its file first, then the fastest. */
function covering(m: MutantInfo): FileCoverage[] {
  const own = words(m.file);
  const related = (c: FileCoverage): number => ([...words(c.file)].some((w) => own.has(w)) ? 0 : 1);
  return usable.filter((c) => c.mutants.includes(m.id)).sort((a, b) => related(a) - related(b) || a.ms - b.ms);
}

/**
 * Whether a cached verdict still holds, and the test files whose text changed since (to run first). Test files are
 * hashed in the sandbox: the text this run judges with, whatever is edited in the work tree meanwhile.
 */
function stillHolds(
  verdict: Verdict | undefined,
  tests: readonly FileCoverage[],
): { holds: boolean; changed: Set<string> } {
  const changed = new Set(tests.filter((t) => verdict?.seen[t.file] !== fileHash(sandbox, t.file)).map((t) => t.file));
  if (verdict === undefined) return { holds: false, changed };
  // A kill holds while the file that killed it is unchanged.
  if (verdict.status === 'killed' || verdict.status === 'timeout') {
    return { holds: verdict.by !== undefined && verdict.seen[verdict.by] === fileHash(sandbox, verdict.by), changed };
  }
  // A survivor or an uncovered mutant holds while the same files, unchanged, reach it, and no larger budget could
  // run more of them.
  const same = tests.length === Object.keys(verdict.seen).length && changed.size === 0;
  const partial = verdict.status === 'survived' && verdict.tests < verdict.covering && budget > verdict.budget;
  return { holds: same && !partial, changed };
}

async function judge(m: MutantInfo): Promise<Judged> {
  const found = covering(m);
  const key = createHash('sha256')
    .update(`${stable(m)}\n${fileHash(root, m.file)}`)
    .digest('hex');
  const cached = cache[key];
  const { holds, changed } = stillHolds(cached, found);
  if (cached && holds) return { ...m, ...cached };
  // Files changed since the last verdict (a new assertion) go first.
  const tests = [...found].sort((a, b) => Number(changed.has(b.file)) - Number(changed.has(a.file)));
  const seen = Object.fromEntries(tests.map((t) => [t.file, fileHash(sandbox, t.file)]));
  let verdict: Verdict = {
    status: tests.length === 0 ? 'no coverage' : 'survived',
    tests: 0,
    covering: tests.length,
    budget,
    seen,
  };
  let spent = 0;
  for (const t of tests) {
    // A mutant no covering file has killed within the budget (of the files' own times) is a survivor judged by fewer
    // than all of them: a conservative verdict, shown as `tests` of `covering`.
    if (verdict.tests >= 2 && spent + t.ms > budget) break;
    spent += t.ms;
    // Room for a loaded machine (3 times the file's time, and at least the floor more); beyond it, a timeout.
    const run = await runFile({ sandbox, file: t.file, mutant: m.id, timeoutMs: Math.max(3 * t.ms, t.ms + floor) });
    verdict = { ...verdict, status: 'survived', tests: verdict.tests + 1 };
    if (run.outcome === 'fail') {
      verdict = { ...verdict, status: 'killed', by: t.file };
      break;
    }
    if (run.outcome === 'timeout') {
      verdict = { ...verdict, status: 'timeout', by: t.file };
      break;
    }
  }
  cache[key] = verdict;
  writeFileSync(cacheFile, JSON.stringify(cache));
  return { ...m, ...verdict };
}

const judged: Judged[] = [];
let next = 0;
await Promise.all(
  Array.from({ length: Number(values.concurrency) }, async () => {
    while (next < sample.length) {
      const m = sample[next++];
      const j = await judge(m);
      judged.push(j);
      log(`${judged.length}/${sample.length} ${j.status.padEnd(11)} ${m.file}:${m.line} ${m.mutator} ${j.by ?? ''}`);
    }
  }),
);

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
});
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
  budgetSeconds: budget / 1000,
  testFiles: { used: usable.length, setAside: setAside.map((c) => c.file) },
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
