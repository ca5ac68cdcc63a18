/**
 * Render benchmark of `<store-progress-list>` in headless Chromium: the time to render 10,000 rows (scripted
 * uploader, virtualized list), then an upload run over them the way the real uploader drives the list — a few
 * tasks moving at once, one coalesced `change` every 100 ms — timing each update and counting long tasks
 * (> 50 ms, `PerformanceObserver` `longtask`). Target: no long task while they upload.
 *
 * Chromium is launched under `flock /tmp/chromium.lock` (one browser at a time on this machine): the bench module
 * re-runs this file with `--run` under the lock and reads its JSON from stdout.
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BenchResult } from './types.ts';

const ROOT = resolve(import.meta.dirname, '..');
const ROWS = 10_000;
/** Tasks uploading at once (the uploader's default concurrency is 3; a little more load than that). */
const ACTIVE = 4;
const TICKS = 60;
const TICK_MS = 100;

/** What the page measures. */
interface PageFigures {
  renderMs: number;
  updateMeanMs: number;
  updateMaxMs: number;
  renderedRows: number;
  longTasksDuringRender: number;
  longTasksDuringUpdates: number;
  longestTaskDuringUpdatesMs: number;
}

/** The page side, bundled by esbuild: builds the list, runs the script, reports figures. */
const PAGE_SCRIPT = `
import './src/elements/progress-list/define.ts';
import { ScriptedUploader, manyTasks } from './src/testing/scripted-uploader.ts';

const longTasks = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) longTasks.push({ start: e.startTime, duration: e.duration }); })
  .observe({ type: 'longtask', buffered: true });
const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

globalThis.runRenderBench = async ({ rows, active, ticks, tickMs }) => {
  await frame();
  const uploader = new ScriptedUploader({ tasks: manyTasks(rows).map((t) => ({ ...t, state: 'queued', bytesSent: 0, bytesAcknowledged: 0, speed: 0 })) });
  const list = document.createElement('store-progress-list');
  list.uploader = uploader;
  const start = performance.now();
  document.body.append(list);
  await list.updateComplete;
  await frame();
  await frame();
  const renderEnd = performance.now();
  const renderedRows = list.shadowRoot.querySelectorAll('[data-id]').length;

  const updates = [];
  const size = (id) => uploader.snapshotOf(id).total;
  for (let tick = 0; tick < ticks; tick++) {
    await sleep(tickMs);
    const t0 = performance.now();
    // Every fourth tick the moving window finishes its files and the next ones start, as a queue drains.
    const window = Math.floor(tick / 4);
    for (let k = 0; k < active; k++) {
      const id = 't' + (window * active + k);
      const part = (tick % 4) + 1;
      uploader.apply(part === 4 ? { task: id, state: 'done' } : { task: id, state: 'uploading', bytesSent: Math.round((size(id) * part) / 4), speed: 5e6 });
    }
    await list.updateComplete;
    await frame();
    updates.push(performance.now() - t0);
  }
  await sleep(200);
  const during = (from, to) => longTasks.filter((t) => t.start >= from && t.start < to);
  const updating = during(renderEnd, performance.now());
  return {
    renderMs: renderEnd - start,
    updateMeanMs: updates.reduce((a, b) => a + b, 0) / updates.length,
    updateMaxMs: Math.max(...updates),
    renderedRows,
    longTasksDuringRender: during(0, renderEnd).filter((t) => t.duration > 50).length,
    longTasksDuringUpdates: updating.filter((t) => t.duration > 50).length,
    longestTaskDuringUpdatesMs: Math.max(0, ...updating.map((t) => t.duration)),
  };
};
`;

/** Bundles the page script, opens it in Chromium and returns the page's figures (runs under the lock). */
async function measureInChromium(): Promise<PageFigures> {
  const { build } = await import('esbuild');
  const { chromium } = await import('playwright-core');
  const { CHROMIUM_ARGS, CHROMIUM_PATH } = (await import(pathToFileURL(resolve(ROOT, 'test/browser/chromium.js')).href)) as { CHROMIUM_ARGS: string[]; CHROMIUM_PATH: string };
  const bundle = await build({
    stdin: { contents: PAGE_SCRIPT, resolveDir: ROOT, loader: 'ts' },
    bundle: true,
    minify: true,
    write: false,
    format: 'iife',
    target: 'es2022',
    tsconfig: resolve(ROOT, 'tsconfig.browser.json'),
    conditions: ['production'],
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'error',
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.setContent('<!doctype html><html lang="en"><head><title>render bench</title></head><body></body></html>');
    await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
    const figures = await page.evaluate(
      (args) => (globalThis as unknown as { runRenderBench: (a: typeof args) => Promise<PageFigures> }).runRenderBench(args),
      { rows: ROWS, active: ACTIVE, ticks: TICKS, tickMs: TICK_MS },
    );
    if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
    return figures;
  } finally {
    await browser.close();
  }
}

export default async function renderBench(): Promise<BenchResult> {
  console.error(`bench render: ${ROWS} rows in <store-progress-list>, headless Chromium (waiting for /tmp/chromium.lock)`);
  const out = execFileSync('flock', ['/tmp/chromium.lock', process.execPath, '--import', 'tsx', resolve(import.meta.dirname, 'render.bench.ts'), '--run'], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    timeout: 180_000,
  });
  const figures = JSON.parse(out.trim().split('\n').pop()!) as PageFigures;
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    name: 'render',
    metrics: {
      rows: ROWS,
      rendered_rows: figures.renderedRows,
      render_ms: round(figures.renderMs),
      update_mean_ms: round(figures.updateMeanMs),
      update_max_ms: round(figures.updateMaxMs),
      long_tasks_render: figures.longTasksDuringRender,
      longest_task_updates_ms: round(figures.longestTaskDuringUpdatesMs),
    },
    targets: {
      long_tasks_updates: { value: figures.longTasksDuringUpdates, target: '0 over 50 ms', pass: figures.longTasksDuringUpdates === 0 },
    },
  };
}

if (process.argv.includes('--run') && process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  console.log(JSON.stringify(await measureInChromium()));
}
