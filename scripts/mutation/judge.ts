// One lane's verdict on one mutant: the test files of that lane that reach it run with it on (those named like its
// file first, then the fastest), stopping at the first failure, within a budget of test time; cached per lane. A kill
// is kept while the mutant's file and the test file that killed it are unchanged, any other verdict while the same
// unchanged files reach it.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { fileHash, type FileCoverage } from './coverage.ts';
import type { FileRun, RunOptions } from './run-file.ts';
import type { MutantInfo } from './sandbox.ts';

export type Status = 'killed' | 'survived' | 'timeout' | 'no coverage';

/** The suites a mutant can be judged by: node:test files, web-test-runner files in Chromium, the cluster's. */
export type Lane = 'node' | 'browser' | 'cluster';

export interface Judged extends MutantInfo {
  readonly status: Status;
  /** The test file that killed it or timed out on it. */
  readonly by?: string;
  /** How many test files ran, over every lane that judged it. */
  readonly tests: number;
  /** How many test files reach it, over every lane that judged it. */
  readonly covering: number;
  /** The lane whose verdict stands (the last that reached it; `node` when none did). */
  readonly lane: Lane;
}

/** A verdict as the cache keeps it (by the mutant's place and its file's text, and the lane). */
export interface Verdict extends Omit<Judged, keyof MutantInfo | 'lane'> {
  /** The budget (ms) it was judged with. */
  readonly budget: number;
  /** The text hashes of the test files that reached it. */
  readonly seen: Record<string, string>;
  /** Absent in verdicts of runners before the lanes: those are the node lane's. */
  readonly lane?: Lane;
}

/** A lane ready to judge: its usable test files (with what each reaches) and how one of them runs. */
export interface LaneRunner {
  readonly lane: Lane;
  readonly usable: readonly FileCoverage[];
  readonly run: (options: RunOptions) => Promise<FileRun>;
}

/** What every lane shares: the sandbox, the verdict cache and the budget. */
export interface JudgeContext {
  readonly root: string;
  readonly sandbox: string;
  readonly cache: Record<string, Verdict>;
  readonly cacheFile: string;
  /** Test time (ms) a mutant may spend in one lane, after its first two files. */
  readonly budget: number;
  /** The least extra time (ms) a file gets beyond its own before its run counts as a timeout. */
  readonly floor: number;
}

/** The mutant's place and replacement: stable across instrumentations of the same text. */
export const stable = (m: MutantInfo): string => `${m.file}:${m.line}:${m.column}:${m.mutator}:${m.replacement}`;

/**
 * `stable` and where the replaced text ends: two mutants can start at one place with one replacement (`a && b` →
 * `true`, and its `a` → `true`), and only their ends tell them apart.
 */
export const identity = (m: MutantInfo): string => `${stable(m)}:${m.endLine}:${m.endColumn}`;

/** Words of a path that can tie a test file to a source file (`resumable-put.ts` → resumable, put). */
const words = (path: string): Set<string> =>
  new Set(path.split(/[/.-]/).filter((w) => w.length > 2 && !['test', 'src', 'server', 'index'].includes(w)));

/** The test files of `usable` that reach `m`: those named like its file first, then the fastest. */
export function covering(usable: readonly FileCoverage[], m: MutantInfo): FileCoverage[] {
  const own = words(m.file);
  const related = (c: FileCoverage): number => ([...words(c.file)].some((w) => own.has(w)) ? 0 : 1);
  return usable.filter((c) => c.mutants.includes(m.id)).sort((a, b) => related(a) - related(b) || a.ms - b.ms);
}

/**
 * Whether a cached verdict still holds, and the test files whose text changed since (to run first). Test files are
 * hashed in the sandbox: the text this run judges with, whatever is edited in the work tree meanwhile.
 */
function stillHolds(
  context: JudgeContext,
  verdict: Verdict | undefined,
  tests: readonly FileCoverage[],
): { holds: boolean; changed: Set<string> } {
  const now = (file: string): string => fileHash(context.sandbox, file);
  const changed = new Set(tests.filter((t) => verdict?.seen[t.file] !== now(t.file)).map((t) => t.file));
  if (verdict === undefined) return { holds: false, changed };
  // A kill holds while the file that killed it is unchanged.
  if (verdict.status === 'killed' || verdict.status === 'timeout') {
    return { holds: verdict.by !== undefined && verdict.seen[verdict.by] === now(verdict.by), changed };
  }
  // A survivor or an uncovered mutant holds while the same files, unchanged, reach it, and no larger budget could
  // run more of them.
  const same = tests.length === Object.keys(verdict.seen).length && changed.size === 0;
  const partial = verdict.status === 'survived' && verdict.tests < verdict.covering && context.budget > verdict.budget;
  return { holds: same && !partial, changed };
}

/** The cache key of `m`'s verdict in `lane`: the node lane's keys are those of runners before the lanes. */
function cacheKey(context: JudgeContext, m: MutantInfo, lane: Lane): string {
  const key = createHash('sha256')
    .update(`${identity(m)}\n${fileHash(context.root, m.file)}`)
    .digest('hex');
  return lane === 'node' ? key : `${lane}:${key}`;
}

/**
 * `lane`'s verdict on `m`, from the cache while it holds; `cached` says whether it came from there, `ranMs` how long
 * its test files ran (a browser file's wait for the machine's browser lock aside).
 */
export async function judgeIn(
  context: JudgeContext,
  runner: LaneRunner,
  m: MutantInfo,
): Promise<{ verdict: Verdict; cached: boolean; ranMs: number }> {
  const found = covering(runner.usable, m);
  const key = cacheKey(context, m, runner.lane);
  const previous = context.cache[key];
  const { holds, changed } = stillHolds(context, previous, found);
  if (previous && holds) return { verdict: previous, cached: true, ranMs: 0 };
  // Files changed since the last verdict (a new assertion) go first.
  const tests = [...found].sort((a, b) => Number(changed.has(b.file)) - Number(changed.has(a.file)));
  const seen = Object.fromEntries(tests.map((t) => [t.file, fileHash(context.sandbox, t.file)]));
  let verdict: Verdict = {
    status: tests.length === 0 ? 'no coverage' : 'survived',
    tests: 0,
    covering: tests.length,
    budget: context.budget,
    seen,
    lane: runner.lane,
  };
  let spent = 0;
  let ranMs = 0;
  for (const t of tests) {
    // A mutant no covering file has killed within the budget (of the files' own times) is a survivor judged by fewer
    // than all of them: a conservative verdict, shown as `tests` of `covering`.
    if (verdict.tests >= 2 && spent + t.ms > context.budget) break;
    spent += t.ms;
    // Room for a loaded machine (3 times the file's time, and at least the floor more); beyond it, a timeout.
    const timeoutMs = Math.max(3 * t.ms, t.ms + context.floor);
    const run = await runner.run({ sandbox: context.sandbox, file: t.file, mutant: m.id, timeoutMs });
    ranMs += run.ms;
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
  context.cache[key] = verdict;
  writeFileSync(context.cacheFile, JSON.stringify(context.cache));
  return { verdict, cached: false, ranMs };
}

/** `m` as judged so far, after `lane`'s verdict: a lane that does not reach it leaves it as it was. */
export function after(judged: Judged, verdict: Verdict, lane: Lane): Judged {
  if (verdict.covering === 0) return judged;
  return {
    ...judged,
    status: verdict.status,
    by: verdict.by,
    tests: judged.tests + verdict.tests,
    covering: judged.covering + verdict.covering,
    lane,
  };
}
