/**
 * Render benchmark of `<store-progress-list>` in headless Chromium with the REAL worker uploader against a real
 * `store-service` (issue 12): the self-contained browser bundle (`npm run build:browser`, production Lit) is served
 * with the service behind the same origin; 10,000 small files are added through `<store-dropzone>` (in slices) and
 * upload with live progress while the list is scrolled to the end; Home and End then move keyboard focus to the first
 * and last rows; once every file is stored the same scroll and keys are taken again over the idle list. Against the
 * same steps over a plain 10,000-row list built without the kit, nothing uploading (`render-baseline.ts`), in
 * alternating runs (`RENDER_ROUNDS`, default 3 of each) so the machine's load weighs on both alike.
 * Measured: the add, rows visible at once while scrolling (default 24rem list), long tasks (> 50 ms,
 * `PerformanceObserver` `longtask`) with each one's main-thread CPU time (sampled from /proc by
 * `test/browser/main-thread-cpu.js`: on this shared machine wall time also counts other processes' turns on the CPU)
 * and who held the cores meanwhile (`core-sampler.ts`), and the time until every file is stored. Each run's detail
 * goes to `results/render-floor.json`.
 *
 * Chromium is launched under `flock /tmp/chromium.lock` (one browser at a time on this machine): the bench module
 * re-runs this file with `--run --case kit|baseline` under the lock and reads its JSON from stdout.
 * `--profile out.cpuprofile` also writes a CPU profile of the page (open it in Chromium's DevTools) to find what a
 * long task was; `--trace out.json` a Chromium trace (tasks with their wall and thread time, style, layout, GC;
 * large: ~400 MB for 3,000 rows). Each long task is printed with what ran in it (the Long Animation Frames API's
 * scripts). The engine runs where `createUploader` puts it by default (the site's shared worker in Chromium);
 * `RENDER_HOST=dedicated` compares the page's own worker; `RENDER_BASELINE=all-rows` a baseline with every row in the
 * DOM instead of a hand-windowed one.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openBenchPage, runLocked } from './bench-page.ts';
import { sampleCores } from './core-sampler.ts';
import { BASELINE_PAGE } from './render-baseline.ts';
import {
  FLOOR_PATH,
  renderResult,
  summarise,
  type CaseRun,
  type PageFigures,
  type RunFigures,
} from './render-summary.ts';
import { PAGE_STEPS } from './render-steps.ts';
import type { BenchResult } from './types.ts';

/** RENDER_ROWS overrides the row count for a quicker look while working on the list; the bench reports 10,000. */
const ROWS = Number(process.env['RENDER_ROWS'] ?? 10_000);
/** Rounds of (baseline, kit): RENDER_ROUNDS=1 for a quicker look. */
const ROUNDS = Number(process.env['RENDER_ROUNDS'] ?? 3);

/** Runs in the page: the whole scenario; returns the figures. */
const PAGE_SCRIPT = `${PAGE_STEPS}
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
  // Making 10,000 File objects is the test's own work, not the kit's: its own phase, not counted.
  enter('setup');
  const files = Array.from({ length: rows }, (_, i) => new File(['file ' + i + '\\n'], 'f' + String(i).padStart(5, '0') + '.txt', { type: 'text/plain' }));
  enter('add');
  const t0 = performance.now();
  await dropzone.addFiles(files.map((file) => ({ file, relativePath: file.name })));
  const addMs = performance.now() - t0;
  enter('scroll');
  await until(() => listRows().length > 0, 'rows');
  const { minVisibleRows, maxRenderedRows } = await scrollToEnd(scroller(), listRows);
  enter('keyboard');
  await homeEnd(list.shadowRoot, scroller(), listRows, rows);
  enter('upload');
  await until(() => uploader.snapshot.tasks.every((t) => t.state === 'done'), 'all done');
  const allDoneMs = performance.now() - t0;
  // The same steps over the same list with every task finished and nothing uploading (the kit idle).
  enter('settle');
  await pause(2000);
  scroller().scrollTop = 0;
  await frame();
  await frame();
  await pause(1000);
  enter('scroll-idle');
  await scrollToEnd(scroller(), listRows);
  enter('keyboard-idle');
  await homeEnd(list.shadowRoot, scroller(), listRows, rows);
  enter('end');
  await frame();
  await pause(200);
  const hostUsed = uploader.host;
  uploader.destroy();
  return { addMs, minVisibleRows, maxRenderedRows, lastRowFocused: true, allDoneMs, origin: performance.timeOrigin, longTasks, phases, frames, host: hostUsed };
};
`;

const KIT_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>render bench</title></head><body>
<store-dropzone multiple></store-dropzone><store-progress-list></store-progress-list>
<script type="module">import '/kit/store-upload-kit.js';</script><script>${PAGE_SCRIPT}</script></body></html>`;

/** Opens the page (`kit` or `baseline`) in Chromium, runs the scenario; figures with CPU per long task. */
async function measureInChromium(kind: string, profilePath?: string): Promise<RunFigures> {
  const bench = await openBenchPage(
    kind === 'baseline' ? BASELINE_PAGE : KIT_PAGE,
    kind === 'baseline' ? null : undefined,
  );
  const cores = await sampleCores(cpus().length);
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
      { rows: ROWS, host: process.env['RENDER_HOST'], baseline: process.env['RENDER_BASELINE'] },
    );
    const long = figures.longTasks.filter((t) => t.duration > 50);
    await bench.attributeCpu(long, figures.origin);
    const phaseSpans = figures.phases.map(([name, at], i) => ({
      name,
      start: figures.origin + at,
      end: figures.origin + (figures.phases[i + 1]?.[1] ?? at),
    }));
    const shares = await cores.stop([
      ...long.map((t) => ({ start: figures.origin + t.start, end: figures.origin + t.start + t.duration })),
      ...phaseSpans,
    ]);
    if (tracing > 0) writeFileSync(process.argv[tracing + 1], await bench.browser.stopTracing());
    await stopProfile();
    if (bench.errors.length) throw new Error(`page errors: ${bench.errors.join('; ')}`);
    return {
      ...figures,
      taskCores: shares.slice(0, long.length),
      phaseCores: Object.fromEntries(phaseSpans.map((p, i) => [p.name, shares[long.length + i]!])),
    };
  } finally {
    await bench.close();
  }
}

export default async function renderBench(): Promise<BenchResult> {
  console.error(
    `bench render: ${ROUNDS} rounds of a plain ${ROWS}-row list (baseline) and ${ROWS} real uploads in ` +
      `<store-progress-list>, headless Chromium (waiting for /tmp/chromium.lock)`,
  );
  const runs: CaseRun[] = [];
  // Alternating (baseline, kit, kit, baseline, …) so the machine's load weighs on both alike.
  for (let round = 1; round <= ROUNDS; round++) {
    for (const kind of round % 2 ? ['baseline', 'kit'] : ['kit', 'baseline']) {
      const loadBefore = loadavg()[0]!;
      const date = new Date().toISOString();
      const figures = runLocked<RunFigures>('render.bench.ts', ['--case', kind]);
      runs.push(...summarise(kind, round, date, [loadBefore, loadavg()[0]!], figures));
    }
  }
  writeFileSync(
    FLOOR_PATH,
    JSON.stringify({ name: 'render-floor', rows: ROWS, cpus: cpus().length, runs }, null, 2) + '\n',
  );
  return renderResult(ROWS, runs);
}

if (
  process.argv.includes('--run') &&
  process.argv[1] &&
  import.meta.url === pathToFileURL(resolve(process.argv[1])).href
) {
  const at = process.argv.indexOf('--profile');
  const c = process.argv.indexOf('--case');
  const kind = c > 0 ? process.argv[c + 1]! : 'kit';
  console.log(JSON.stringify(await measureInChromium(kind, at > 0 ? process.argv[at + 1] : undefined)));
}
