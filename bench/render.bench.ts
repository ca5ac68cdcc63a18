/**
 * Render benchmark of `<store-progress-list>` in headless Chromium with the REAL worker uploader against a real
 * `store-service` (issue 12): the self-contained browser bundle (`npm run build:browser`, production Lit) is served
 * with the service behind the same origin; 10,000 small files are added through `<store-dropzone>` (in slices) and
 * upload with live progress while the list is scrolled to the end; End then moves keyboard focus to the last row.
 * Measured: the add (time and long tasks), rows visible at once while scrolling (default 24rem list), long tasks
 * (> 50 ms, `PerformanceObserver` `longtask`) over the whole run with each one's main-thread CPU time (sampled from
 * /proc by `test/browser/main-thread-cpu.js`: on this shared machine wall time also counts other processes' turns
 * on the CPU), and the time until every file is stored.
 *
 * Chromium is launched under `flock /tmp/chromium.lock` (one browser at a time on this machine): the bench module
 * re-runs this file with `--run` under the lock and reads its JSON from stdout. `--profile out.cpuprofile` also
 * writes a CPU profile of the page (open it in Chromium's DevTools) to find what a long task was; `--trace out.json`
 * a Chromium trace (tasks with their wall and thread time, style, layout, GC; large: ~400 MB for 3,000 rows).
 * Each long task is printed with what ran in it (the Long Animation Frames API's scripts). The engine runs where
 * `createUploader` puts it by default (the site's shared worker in Chromium); `RENDER_HOST=dedicated` compares the
 * page's own worker.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openBenchPage, PAGE_PRELUDE, runLocked, type LongTask } from './bench-page.ts';
import type { BenchResult } from './types.ts';

/** RENDER_ROWS overrides the row count for a quicker look while working on the list; the bench reports 10,000. */
const ROWS = Number(process.env['RENDER_ROWS'] ?? 10_000);

/** What the page measures. */
interface PageFigures {
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
  /** Where the engine ran (`uploader.host`). */
  host: string;
}

/** Runs in the page: the whole scenario; returns the figures. */
const PAGE_SCRIPT = `${PAGE_PRELUDE}
const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
const until = async (test, what, ms = 240000) => { const end = performance.now() + ms; while (!test()) { if (performance.now() > end) throw new Error('timed out: ' + what); await new Promise((d) => setTimeout(d, 50)); } };
const frames = [];
const file = (url) => (url ? new URL(url).pathname : '');
new PerformanceObserver((list) => { for (const f of list.getEntries()) if (f.duration > 50) frames.push({ start: Math.round(f.startTime), duration: Math.round(f.duration),
  what: f.scripts.filter((s) => s.duration >= 1).sort((a, b) => b.duration - a.duration).slice(0, 4).map((s) => s.invoker + ' → ' + (s.sourceFunctionName || '(anonymous)') + ' ' + file(s.sourceURL) + ' ' + Math.round(s.duration) + ' ms').join('; ') + (f.renderStart > 0 ? '; rendering ' + Math.round(f.startTime + f.duration - f.renderStart) + ' ms' : '') }); })
  .observe({ type: 'long-animation-frame' });
globalThis.runRenderBench = async ({ rows, host }) => {
  const { createUploader } = await import('/kit/store-upload-kit.js');
  const uploader = createUploader({ baseUrl: location.origin, getAccessToken: () => 'dev-token-alice', concurrency: 6, ...(host && { host }) });
  await uploader.interrupted();
  const dropzone = document.querySelector('store-dropzone');
  const list = document.querySelector('store-progress-list');
  dropzone.uploader = uploader;
  list.uploader = uploader;
  const listRows = () => [...list.shadowRoot.querySelectorAll('[role="listitem"]')];
  const scroller = () => list.shadowRoot.querySelector('[part="list"]');
  const visible = () => { const box = scroller().getBoundingClientRect(); return listRows().filter((r) => { const b = r.getBoundingClientRect(); return Math.min(b.bottom, box.bottom) - Math.max(b.top, box.top) >= b.height / 2; }).length; };
  // Making 10,000 File objects is the test's own work, not the kit's: its own phase, not counted.
  enter('setup');
  const files = Array.from({ length: rows }, (_, i) => new File(['file ' + i + '\\n'], 'f' + String(i).padStart(5, '0') + '.txt', { type: 'text/plain' }));
  enter('add');
  const t0 = performance.now();
  await dropzone.addFiles(files.map((file) => ({ file, relativePath: file.name })));
  const addMs = performance.now() - t0;
  enter('scroll');
  await until(() => listRows().length > 0, 'rows');
  const s = scroller();
  let minVisibleRows = Infinity;
  let maxRenderedRows = 0;
  while (s.scrollTop + s.clientHeight < s.scrollHeight - 1) {
    s.scrollTop += s.clientHeight * 25;
    await frame();
    await frame();
    minVisibleRows = Math.min(minVisibleRows, visible());
    maxRenderedRows = Math.max(maxRenderedRows, listRows().length);
  }
  enter('keyboard');
  const first = listRows()[0];
  first.focus();
  const key = (k) => list.shadowRoot.activeElement.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, composed: true, cancelable: true }));
  const focusedRow = () => list.shadowRoot.activeElement?.closest('[role="listitem"]')?.getAttribute('aria-posinset');
  key('Home');
  await until(() => focusedRow() === '1', 'Home', 10000);
  key('End');
  await until(() => focusedRow() === String(rows), 'End', 10000);
  enter('upload');
  await until(() => uploader.snapshot.tasks.every((t) => t.state === 'done'), 'all done');
  const allDoneMs = performance.now() - t0;
  await frame();
  await new Promise((d) => setTimeout(d, 200));
  const hostUsed = uploader.host;
  uploader.destroy();
  return { addMs, minVisibleRows, maxRenderedRows, lastRowFocused: true, allDoneMs, origin: performance.timeOrigin, longTasks, phases, frames, host: hostUsed };
};
`;

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>render bench</title></head><body>
<store-dropzone multiple></store-dropzone><store-progress-list></store-progress-list>
<script type="module">import '/kit/store-upload-kit.js';</script><script>${PAGE_SCRIPT}</script></body></html>`;

/** Opens the page on the bundle and the service in Chromium, runs the scenario; returns figures with CPU per long task. */
async function measureInChromium(profilePath?: string): Promise<PageFigures> {
  const bench = await openBenchPage(PAGE);
  try {
    const stopProfile = await bench.profile(profilePath);
    const tracing = process.argv.indexOf('--trace');
    if (tracing > 0)
      await bench.browser.startTracing(bench.page, {
        categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'blink', 'toplevel'],
      });
    const figures = await bench.page.evaluate(
      (args) =>
        (globalThis as unknown as { runRenderBench: (a: typeof args) => Promise<PageFigures> }).runRenderBench(args),
      { rows: ROWS, host: process.env['RENDER_HOST'] },
    );
    await bench.attributeCpu(
      figures.longTasks.filter((t) => t.duration > 50),
      figures.origin,
    );
    if (tracing > 0) writeFileSync(process.argv[tracing + 1], await bench.browser.stopTracing());
    await stopProfile();
    if (bench.errors.length) throw new Error(`page errors: ${bench.errors.join('; ')}`);
    return figures;
  } finally {
    await bench.close();
  }
}

export default async function renderBench(): Promise<BenchResult> {
  console.error(
    `bench render: ${ROWS} real uploads in <store-progress-list>, headless Chromium (waiting for /tmp/chromium.lock)`,
  );
  const figures = runLocked<PageFigures>('render.bench.ts');
  const round = (n: number) => Math.round(n * 10) / 10;
  const measured = figures.longTasks.filter((t) => t.phase !== 'load' && t.phase !== 'setup');
  const over = measured.filter((t) => t.duration > 50);
  const what = (t: LongTask) =>
    figures.frames.find((f) => f.start <= t.start + 1 && f.start + f.duration >= t.start + t.duration - 1)?.what ??
    'no long animation frame';
  console.error(
    `  host ${figures.host}; phases (ms): ${figures.phases.map(([name, at]) => `${name} ${Math.round(at)}`).join(', ')}`,
  );
  // CPU unknown (not Linux) counts as over: the CPU figure may only ever clear a task, never hide one.
  const overCpu = over.filter((t) => t.cpu === null || t.cpu === undefined || t.cpu > 50);
  for (const t of over)
    console.error(
      `  long task in ${t.phase} at ${t.start} ms: ${t.duration} ms wall, ${t.cpu ?? '?'} ms main-thread CPU: ${what(t)}`,
    );
  return {
    name: 'render',
    metrics: {
      rows: ROWS,
      max_rendered_rows: figures.maxRenderedRows,
      add_ms: round(figures.addMs),
      all_stored_ms: round(figures.allDoneMs),
      long_tasks_over_50ms: over.length,
      longest_task_ms: Math.max(0, ...measured.map((t) => t.duration)),
      long_tasks_over_50ms_cpu: overCpu.length,
      longest_task_cpu_ms: Math.max(0, ...over.map((t) => t.cpu ?? 0)),
    },
    targets: {
      visible_rows: {
        value: figures.minVisibleRows,
        target: '≥ 8 rows at once in the default 24rem list',
        pass: figures.minVisibleRows >= 8,
      },
      long_tasks: {
        value: over.length,
        target: '0 main-thread tasks over 50 ms of wall time (add, scroll, keyboard, upload)',
        pass: over.length === 0,
      },
      long_tasks_cpu: {
        value: overCpu.length,
        target: '0 main-thread tasks over 50 ms of main-thread CPU time (same phases)',
        pass: overCpu.length === 0,
      },
      last_row_by_keyboard: {
        value: figures.lastRowFocused ? 1 : 0,
        target: 'End focuses row 10,000',
        pass: figures.lastRowFocused,
      },
    },
  };
}

if (
  process.argv.includes('--run') &&
  process.argv[1] &&
  import.meta.url === pathToFileURL(resolve(process.argv[1])).href
) {
  const at = process.argv.indexOf('--profile');
  console.log(JSON.stringify(await measureInChromium(at > 0 ? process.argv[at + 1] : undefined)));
}
