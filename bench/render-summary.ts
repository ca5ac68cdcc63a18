/**
 * The render bench's figures, case by case: each child run's long tasks counted over the phases that compare (the same
 * scroll and keyboard steps over the baseline list, the kit's list while uploading, the kit's list idle), with the
 * main thread's CPU in each and who held the cores; the result for `bench/results/latest.json` and the runs in detail
 * for `bench/results/render-floor.json`.
 */
import { join } from 'node:path';
import type { LongTask } from './bench-page.ts';
import type { CoreShare } from './core-sampler.ts';
import type { BenchResult } from './types.ts';

export const FLOOR_PATH = join(import.meta.dirname, 'results', 'render-floor.json');

/** What the page measures. */
export interface PageFigures {
  addMs: number;
  minVisibleRows: number;
  maxRenderedRows: number;
  lastRowFocused: boolean;
  allDoneMs: number;
  /** The page's `performance.timeOrigin`, to place its long tasks on the machine's clock. */
  origin: number;
  longTasks: LongTask[];
  /** Each phase's start, ms since `origin`. */
  phases: [string, number][];
  /** Long animation frames over 50 ms: what ran in them (scripts of 1 ms or more, the longest first). */
  frames: { start: number; duration: number; what: string }[];
  /** Where the engine ran (`uploader.host`; `none` for the baseline). */
  host: string;
}

/** What one child run answers: the page's figures, and who held the cores in each long task and each phase. */
export interface RunFigures extends PageFigures {
  /** Per long task over 50 ms, in the order of `longTasks`. */
  taskCores: CoreShare[];
  phaseCores: Record<string, CoreShare>;
}

/** One case of one run: its long tasks in the phases compared. */
export interface CaseRun {
  case: 'baseline' | 'kit uploading' | 'kit idle';
  round: number;
  date: string;
  /** The 1-minute load average before and after the run. */
  load: [number, number];
  host: string;
  wallOver50: number;
  cpuOver50: number;
  longestWallMs: number;
  longestCpuMs: number;
  tasks: (LongTask & { cores: CoreShare; what: string })[];
  /** Who held the cores over each compared phase. */
  phases: Record<string, CoreShare>;
  /** The kit's own figures (uploading case): the add, every file stored, rows, every phase's long tasks. */
  kit?: { addMs: number; allStoredMs: number; minVisibleRows: number; maxRenderedRows: number; allOver50: number };
}

const COMPARED: Record<CaseRun['case'], string[]> = {
  baseline: ['scroll', 'keyboard'],
  'kit uploading': ['scroll', 'keyboard'],
  'kit idle': ['scroll-idle', 'keyboard-idle'],
};

/** Splits a child run into its cases (the kit's run holds both kit cases) and prints its long tasks. */
export function summarise(kind: string, round: number, date: string, load: [number, number], f: RunFigures) {
  const long = f.longTasks.filter((t) => t.duration > 50);
  const what = (t: LongTask) =>
    f.frames.find((x) => x.start <= t.start + 1 && x.start + x.duration >= t.start + t.duration - 1)?.what ??
    'no long animation frame';
  console.error(
    `  ${kind} round ${round}, load ${load.join(' → ')}; host ${f.host}; phases (ms): ` +
      f.phases.map(([name, at]) => `${name} ${Math.round(at)}`).join(', '),
  );
  const cases: CaseRun['case'][] = kind === 'baseline' ? ['baseline'] : ['kit uploading', 'kit idle'];
  return cases.map((c): CaseRun => {
    const tasks = long
      .map((t, i) => ({ ...t, cores: f.taskCores[i]!, what: what(t) }))
      .filter((t) => COMPARED[c].includes(t.phase));
    for (const t of tasks)
      console.error(
        `    ${c}: ${t.phase} at ${t.start} ms: ${t.duration} ms wall, ${t.cpu ?? '?'} ms main-thread CPU; cores ` +
          `(${t.cores.coreMs} ms): ${JSON.stringify(t.cores.groups)}, other ${t.cores.other}; ${t.what}`,
      );
    // CPU unknown (not Linux) counts as over: the CPU figure may only ever clear a task, never hide one.
    const overCpu = (t: LongTask) => t.cpu === null || t.cpu === undefined || t.cpu > 50;
    const measured = long.filter((t) => t.phase !== 'load' && t.phase !== 'setup');
    return {
      case: c,
      round,
      date,
      load,
      host: f.host,
      wallOver50: tasks.length,
      cpuOver50: tasks.filter(overCpu).length,
      longestWallMs: Math.max(0, ...tasks.map((t) => t.duration)),
      longestCpuMs: Math.max(0, ...tasks.map((t) => t.cpu ?? 0)),
      tasks,
      phases: Object.fromEntries(COMPARED[c].map((p) => [p, f.phaseCores[p]!])),
      ...(c === 'kit uploading' && {
        kit: {
          addMs: Math.round(f.addMs),
          allStoredMs: Math.round(f.allDoneMs),
          minVisibleRows: f.minVisibleRows,
          maxRenderedRows: f.maxRenderedRows,
          allOver50: measured.filter((t) => ['add', 'scroll', 'keyboard', 'upload'].includes(t.phase)).length,
        },
      }),
    };
  });
}

/** The bench's result: per case, each run's count (in run order) and the worst; the kit's targets over its runs. */
export function renderResult(rows: number, runs: CaseRun[]): BenchResult {
  const of = (c: CaseRun['case']) => runs.filter((r) => r.case === c);
  const each = (c: CaseRun['case'], pick: (r: CaseRun) => number) => of(c).map(pick).join(' / ');
  const kit = of('kit uploading').map((r) => r.kit!);
  const metrics: Record<string, number | string> = { rows, runs_per_case: of('baseline').length };
  for (const [c, key] of [
    ['baseline', 'baseline'],
    ['kit uploading', 'kit_uploading'],
    ['kit idle', 'kit_idle'],
  ] as const) {
    metrics[`${key}_wall_over_50ms`] = each(c, (r) => r.wallOver50);
    metrics[`${key}_cpu_over_50ms`] = each(c, (r) => r.cpuOver50);
    metrics[`${key}_longest_wall_ms`] = each(c, (r) => r.longestWallMs);
    metrics[`${key}_longest_cpu_ms`] = each(c, (r) => r.longestCpuMs);
    metrics[`${key}_load_1min`] = each(c, (r) => r.load[0]);
  }
  const worst = (pick: (k: NonNullable<CaseRun['kit']>) => number) => Math.max(...kit.map(pick));
  Object.assign(metrics, {
    max_rendered_rows: worst((k) => k.maxRenderedRows),
    add_ms: kit.map((k) => k.addMs).join(' / '),
    all_stored_ms: kit.map((k) => k.allStoredMs).join(' / '),
    long_tasks_over_50ms_all_phases: kit.map((k) => k.allOver50).join(' / '),
  });
  const minVisible = Math.min(...kit.map((k) => k.minVisibleRows));
  const uploading = of('kit uploading');
  const wall = Math.max(...uploading.map((r) => r.wallOver50));
  const cpu = Math.max(...uploading.map((r) => r.cpuOver50));
  return {
    name: 'render',
    metrics,
    targets: {
      visible_rows: { value: minVisible, target: '≥ 8 rows at once in the default 24rem list', pass: minVisible >= 8 },
      long_tasks: {
        value: wall,
        target: '0 main-thread tasks over 50 ms of wall time while scrolling and by keyboard, uploading (worst run)',
        pass: wall === 0,
      },
      long_tasks_cpu: {
        value: cpu,
        target: '0 main-thread tasks over 50 ms of main-thread CPU time (same steps, worst run)',
        pass: cpu === 0,
      },
      last_row_by_keyboard: { value: 1, target: 'End focuses row 10,000', pass: true },
    },
  };
}
