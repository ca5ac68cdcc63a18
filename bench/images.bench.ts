/**
 * Thumbnail benchmark (issue 11) in headless Chromium with the REAL worker uploader against a real `store-service`:
 * the self-contained browser bundle (`npm run build:browser`) is served with the service behind the same origin.
 * One 4000 × 3000 JPEG is generated once (setup, not measured) and added 200 times under different names to
 * `<store-progress-list>` through `<store-dropzone>`; the files start uploading at once. Measured: main-thread long
 * tasks (> 50 ms, `PerformanceObserver` `longtask`) from the add until the visible rows have their thumbnails and
 * for a few seconds of uploading after, and the time from the add until every row in view shows its thumbnail
 * (each decoded from the full 12-megapixel JPEG in the worker, two at a time).
 *
 * Chromium runs under `flock /tmp/chromium.lock`: the bench module re-runs this file with `--run` under the lock.
 * `--run --profile out.cpuprofile` also writes a CPU profile of the page (open it in Chromium's DevTools).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openBenchPage, PAGE_PRELUDE, runLocked, type LongTask } from './bench-page.ts';
import type { BenchResult } from './types.ts';

const FILES = 200;
/** Uploading keeps going this long after the thumbnails, to see whether uploads plus thumbnails block the page. */
const AFTER_MS = 5000;

interface PageFigures {
  jpegBytes: number;
  addMs: number;
  visibleRows: number;
  firstThumbnailMs: number;
  visibleThumbnailsMs: number;
  thumbnailsRequested: number;
  /** The page's `performance.timeOrigin`, to place its long tasks on the machine's clock. */
  origin: number;
  longTasks: LongTask[];
}

const PAGE_SCRIPT = `${PAGE_PRELUDE}
const until = async (test, what, ms = 240000) => { const end = performance.now() + ms; while (!test()) { if (performance.now() > end) throw new Error('timed out: ' + what); await new Promise((d) => requestAnimationFrame(d)); } };
globalThis.runImagesBench = async ({ files, afterMs, baseline, thumbnailsMs }) => {
  enter('setup');
  // One photo-like 4000 x 3000 JPEG (gradients, shapes and grain), made once in a worker-free OffscreenCanvas.
  const canvas = new OffscreenCanvas(4000, 3000);
  const g = canvas.getContext('2d');
  const sky = g.createLinearGradient(0, 0, 0, 3000);
  sky.addColorStop(0, '#4a7bd0'); sky.addColorStop(1, '#f0c27a');
  g.fillStyle = sky; g.fillRect(0, 0, 4000, 3000);
  for (let i = 0; i < 400; i++) { g.fillStyle = 'hsl(' + (i * 37 % 360) + ' 60% ' + (30 + i % 40) + '%)'; g.beginPath(); g.arc((i * 977) % 4000, (i * 613) % 3000, 20 + (i * 13) % 200, 0, 7); g.fill(); }
  const grain = g.getImageData(0, 0, 4000, 3000);
  for (let i = 0; i < grain.data.length; i++) if ((i & 3) !== 3) grain.data[i] = Math.min(255, grain.data[i] + Math.random() * 48);
  g.putImageData(grain, 0, 0);
  const jpeg = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.85 });
  const list = document.querySelector('store-progress-list');
  const dropzone = document.querySelector('store-dropzone');
  const { createUploader } = await import('/kit/store-upload-kit.js');
  const uploader = createUploader({ baseUrl: location.origin, getAccessToken: () => 'dev-token-alice', persist: false });
  let requested = 0;
  const thumbnail = uploader.thumbnail.bind(uploader);
  uploader.thumbnail = (id, size) => { requested++; return thumbnail(id, size); };
  dropzone.uploader = uploader;
  list.uploader = uploader;
  // The baseline adds the same bytes as files that are not images: no thumbnails, same uploads.
  const [ext, type] = baseline ? ['.bin', 'application/octet-stream'] : ['.jpg', 'image/jpeg'];
  const picked = Array.from({ length: files }, (_, i) => ({ file: new File([jpeg], 'photo-' + String(i).padStart(3, '0') + ext, { type }) }));
  const rows = () => [...list.shadowRoot.querySelectorAll('[role="listitem"]')];
  const scroller = () => list.shadowRoot.querySelector('[part="list"]');
  const inView = () => { const box = scroller().getBoundingClientRect(); return rows().filter((r) => { const b = r.getBoundingClientRect(); return b.bottom > box.top && b.top < box.bottom; }); };
  const shown = (r) => { const img = r.querySelector('img[part="thumbnail"]'); return img && img.complete && img.naturalWidth > 0; };
  enter('add');
  const t0 = performance.now();
  await dropzone.addFiles(picked);
  const addMs = performance.now() - t0;
  enter('thumbnails');
  await until(() => rows().length === files, 'rows');
  let firstThumbnailMs = 0;
  if (baseline) {
    // As long as the image run waited for its thumbnails: both runs' windows are the same length.
    const end = t0 + thumbnailsMs;
    await until(() => performance.now() > end, 'the thumbnail time of the image run');
  } else {
    // The rows in view are found once: polling the layout of 200 rows every frame would be the bench's own long task.
    const watched = inView();
    await until(() => { const any = watched.some(shown); if (any && !firstThumbnailMs) firstThumbnailMs = performance.now() - t0; return any; }, 'first thumbnail');
    await until(() => watched.every(shown), 'thumbnails of the rows in view');
  }
  const visibleThumbnailsMs = performance.now() - t0;
  const visibleRows = inView().length;
  enter('uploading');
  const end = performance.now() + afterMs;
  await until(() => performance.now() > end, 'upload time');
  enter('teardown');
  uploader.cancelAll();
  uploader.destroy();
  return { jpegBytes: jpeg.size, addMs, visibleRows, firstThumbnailMs, visibleThumbnailsMs, thumbnailsRequested: requested, origin: performance.timeOrigin, longTasks };
};
`;

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>images bench</title></head><body>
<store-dropzone multiple></store-dropzone><store-progress-list></store-progress-list>
<script type="module">import '/kit/store-upload-kit.js';</script><script>${PAGE_SCRIPT}</script></body></html>`;

/** Opens the page on the bundle and the service in Chromium, runs the scenario; returns figures with CPU per long task. */
async function measureInChromium(baseline: boolean, thumbnailsMs: number, profilePath?: string): Promise<PageFigures> {
  const bench = await openBenchPage(PAGE);
  try {
    const stopProfile = await bench.profile(profilePath);
    const figures = await bench.page.evaluate(
      (args) =>
        (globalThis as unknown as { runImagesBench: (a: typeof args) => Promise<PageFigures> }).runImagesBench(args),
      { files: FILES, afterMs: AFTER_MS, baseline, thumbnailsMs },
    );
    await bench.attributeCpu(
      figures.longTasks.filter((t) => t.duration > 50),
      figures.origin,
    );
    await stopProfile();
    if (bench.errors.length) throw new Error(`page errors: ${bench.errors.join('; ')}`);
    return figures;
  } finally {
    await bench.close();
  }
}

export default async function imagesBench(): Promise<BenchResult> {
  console.error(
    `bench images: ${FILES} × 4000×3000 JPEG in <store-progress-list> with thumbnails, headless Chromium (waiting for /tmp/chromium.lock)`,
  );
  const run = (...args: string[]) => runLocked<PageFigures>('images.bench.ts', args);
  const figures = run();
  // The same run with files that are not images, at the same moment's load: long tasks that are not the thumbnails'.
  const baseline = run('--baseline', String(Math.round(figures.visibleThumbnailsMs)));
  const round = (n: number) => Math.round(n);
  const measuredOf = (f: PageFigures) =>
    f.longTasks.filter((t) => t.phase !== 'load' && t.phase !== 'setup' && t.phase !== 'teardown');
  const measured = measuredOf(figures);
  const over = measured.filter((t) => t.duration > 50);
  const baselineOver = measuredOf(baseline).filter((t) => t.duration > 50);
  // CPU unknown (not Linux) counts as over: the CPU figure may only ever clear a task, never hide one.
  const overCpu = over.filter((t) => t.cpu === null || t.cpu === undefined || t.cpu > 50);
  for (const t of over)
    console.error(
      `  long task in ${t.phase} at ${t.start} ms: ${t.duration} ms wall, ${t.cpu ?? '?'} ms main-thread CPU`,
    );
  return {
    name: 'images',
    metrics: {
      files: FILES,
      jpeg_mb: Math.round(figures.jpegBytes / 1e4) / 100,
      add_ms: round(figures.addMs),
      rows_in_view: figures.visibleRows,
      first_thumbnail_ms: round(figures.firstThumbnailMs),
      thumbnails_requested: figures.thumbnailsRequested,
      longest_task_ms: Math.max(0, ...measured.map((t) => t.duration)),
      long_tasks: JSON.stringify(over.map((t) => `${t.duration}ms@${t.phase}`)),
      long_tasks_cpu: JSON.stringify(over.map((t) => `${t.cpu ?? '?'}ms@${t.phase}`)),
      baseline_long_tasks: JSON.stringify(baselineOver.map((t) => `${t.duration}ms@${t.phase}`)),
      baseline_longest_task_ms: Math.max(0, ...measuredOf(baseline).map((t) => t.duration)),
    },
    targets: {
      long_tasks: {
        value: over.length,
        target: '0 main-thread tasks over 50 ms of wall time (add, thumbnails, uploading)',
        pass: over.length === 0,
      },
      long_tasks_cpu: {
        value: overCpu.length,
        target: '0 main-thread tasks over 50 ms of main-thread CPU time (same phases)',
        pass: overCpu.length === 0,
      },
      visible_thumbnails_ms: {
        value: round(figures.visibleThumbnailsMs),
        target: 'reported: add → every row in view shows its thumbnail',
        pass: true,
      },
      thumbnails_requested: {
        value: figures.thumbnailsRequested,
        target: `only rows in view (≤ ${figures.visibleRows + 2}) of ${FILES}`,
        pass: figures.thumbnailsRequested <= figures.visibleRows + 2,
      },
    },
  };
}

if (
  process.argv.includes('--run') &&
  process.argv[1] &&
  import.meta.url === pathToFileURL(resolve(process.argv[1])).href
) {
  const at = process.argv.indexOf('--baseline');
  const profile = process.argv.indexOf('--profile');
  console.log(
    JSON.stringify(
      await measureInChromium(
        at > 0,
        at > 0 ? Number(process.argv[at + 1]) : 0,
        profile > 0 ? process.argv[profile + 1] : undefined,
      ),
    ),
  );
}
