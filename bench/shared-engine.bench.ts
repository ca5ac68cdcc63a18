/**
 * Uploads that outlive the page (issue 20), in headless Chromium on the built bundle (`nice npx vite build` first)
 * against the real service behind the counting proxy (`test/client/helpers/counting-proxy.ts`), on a site of two
 * pages (`/a.html`, `/b.html`) that each create an uploader with the same options (`?host=auto|dedicated`):
 *
 * 1. **The gap a navigation makes in the bytes flowing.** A whole-file upload of 64 MiB (+4,321 bytes: above the
 *    64 MiB the engine would keep in IndexedDB, so a dedicated host resumes from the file chosen again), the proxy
 *    reading at SIZE ÷ 10 per second; at 30 % `page.goto('/b.html')`. From the proxy's log of body arrivals: the
 *    longest interval with no body bytes from 1 s before to 3 s after the navigation, against the same window around
 *    30 % of the same upload without navigation (baseline, same run); the bytes re-sent (received − file size). For
 *    each host: the site's shared worker, and `host: 'dedicated'`, whose worker dies with page A, so page B chooses
 *    the file again at once (as a person would, only sooner) and the engine resumes it after a status query.
 * 2. **The engine's worker's JS heap with 10,000 tasks**: 1 KiB files made in the page, added to one uploader while
 *    the service holds every multipart upload for 2 minutes (an admin delay fault), so they stay queued (3
 *    uploading); `Runtime.getHeapUsage` after two full GCs over CDP, against the same worker with 0 tasks. The page's
 *    own heap beside it (it also holds the 10,000 `File`s the bench made).
 * 3. **The up-front bundle** is the `bundle` bench's `main_thread_up_front_gzip_bytes` (`npm run check-size`); run
 *    `npm run bench -- shared-engine bundle` to have both fresh. Not measured twice.
 *
 * Launches Chromium: the module re-runs this file with `--run` under `flock /tmp/chromium.lock` (`runLocked`).
 */
import { createHash, randomUUID } from 'node:crypto';
import { linkSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { startCountingProxy, type CountingProxy, type ProxiedRequest } from '../test/client/helpers/counting-proxy.ts';
import { startBundleServer, type BundleServer } from '../test/e2e/bundle-server.ts';
import { randomBytes } from '../test/e2e/demo-fixture.ts';
import { startService, type ServiceHandle } from '../test/server/helpers/service.ts';
import { runLocked } from './bench-page.ts';
import type { BenchResult } from './types.ts';
import { longestQuiet } from './quiet-gap.ts';
import { findWorkerTarget, pageHeapAfterGc, workerHeapAfterGc } from './worker-heap.ts';

const MiB = 1024 * 1024;
const SIZE = 64 * MiB + 4321;
/** Bytes per second the proxy reads: the whole file in about 10 s. */
const RATE = Math.round(SIZE / 10);
const NAVIGATE_AT = 0.3;
const BEFORE_MS = 1000;
const AFTER_MS = 3000;
/** SHARED_ENGINE_TASKS overrides the task count for a quicker look; the bench reports 10,000. */
const TASKS = Number(process.env['SHARED_ENGINE_TASKS'] ?? 10_000);
/** SHARED_ENGINE_ROUNDS: rounds of the four uploads (each host without and with a navigation). */
const ROUNDS = Number(process.env['SHARED_ENGINE_ROUNDS'] ?? 3);
const TOKEN = 'dev-token-alice';

type Host = 'auto' | 'dedicated';

/** A page of the site: a file input, and one uploader with the site's options (`bench` on `window`). */
const sitePage = (
  title: string,
  proxy: string,
) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>
<h1>${title}</h1><input type="file" id="file">
<script type="module">
import { createUploader } from '/kit/store-upload-kit.js';
const host = new URLSearchParams(location.search).get('host');
const uploader = createUploader({ baseUrl: ${JSON.stringify(proxy)}, getAccessToken: () => ${JSON.stringify(TOKEN)}, host });
const bench = { uploader };
document.getElementById('file').addEventListener('change', (e) => { for (const f of e.target.files) uploader.add(f).done.catch(() => undefined); });
bench.addSmall = async (n) => {
  const body = 'x'.repeat(1023) + '\\n';
  const files = Array.from({ length: n }, (_, i) => new File([body], 'small-' + String(i).padStart(5, '0') + '.txt', { type: 'text/plain' }));
  const t0 = performance.now();
  for (const f of files) uploader.add(f).done.catch(() => undefined);
  await uploader.interrupted(); // one more call through the worker's port: it has received every add before it
  return performance.now() - t0;
};
bench.states = () => { const c = {}; for (const t of uploader.snapshot.tasks) c[t.state] = (c[t.state] ?? 0) + 1; return c; };
await uploader.interrupted();
bench.host = uploader.host;
window.bench = bench;
</script></body></html>`;

interface NavigationRun {
  /** The host asked for, and the host that ran (`uploader.host`). */
  asked: Host;
  host: string;
  navigated: boolean;
  /** Longest interval without body bytes in [mark − 1 s, mark + 3 s], the interval clipped to the window. */
  quietInWindowMs: number;
  /** The same interval unclipped (it may start before or end after the window). */
  quietAroundMs: number;
  resentBytes: number;
  dataRequests: number;
  cutRequests: number;
  /** When the first body byte of a data request begun after the mark arrived (a resumed upload), after the mark. */
  resumedAfterMs?: number;
  /** Body bytes of a cut request that still arrived after the mark: what sat in socket buffers when it was cut. */
  cutBytesAfterMark: number;
  /** When the last of those arrived, after the mark. */
  cutDrainedAfterMs?: number;
}

interface HeapRun {
  host: string;
  emptyWorkerBytes: number;
  fullWorkerBytes: number;
  emptyPageBytes: number;
  fullPageBytes: number;
  addMs: number;
  states: Record<string, number>;
  tasksSeenByAnotherPage?: number;
}

interface Figures {
  navigation: NavigationRun[];
  heap: HeapRun[];
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
/** Polls `test` every `every` ms (5 for the proxy's counters, which cost nothing to read; more for the service). */
async function until(test: () => boolean | Promise<boolean>, what: string, ms = 120_000, every = 5): Promise<void> {
  for (const end = Date.now() + ms; !(await test()); await sleep(every))
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
}

const isData = (r: ProxiedRequest) => r.method === 'PUT' && r.url.includes('upload_id=');

class Site {
  private constructor(
    readonly service: ServiceHandle,
    readonly proxy: CountingProxy,
    readonly server: BundleServer,
    readonly browser: Browser,
    readonly dir: string,
  ) {}

  static async open(): Promise<Site> {
    const { chromium } = await import('playwright-core');
    const { CHROMIUM_ARGS, CHROMIUM_PATH } = (await import(
      pathToFileURL(resolve(import.meta.dirname, '../test/browser/chromium.js')).href
    )) as { CHROMIUM_ARGS: string[]; CHROMIUM_PATH: string };
    const service = await startService();
    const proxy = await startCountingProxy(service.url);
    const server = await startBundleServer((_req, res, path) => {
      const name = /^\/(a|b)\.html$/.exec(path)?.[1];
      if (!name) return false;
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
        .end(sitePage(`page ${name}`, proxy.url));
      return true;
    });
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    return new Site(service, proxy, server, browser, mkdtempSync(join(tmpdir(), 'bench-shared-engine-')));
  }

  /** A fresh browser context (its own shared worker and storage) on `/<name>.html?host=…`, its uploader attached. */
  async openPage(name: 'a' | 'b', host: Host, run: string, page?: Page): Promise<Page> {
    const p = page ?? (await (await this.browser.newContext()).newPage());
    await p.goto(`${this.server.origin}/${name}.html?host=${host}&run=${run}`);
    await p.waitForFunction(() => 'bench' in globalThis, undefined, { timeout: 60_000 });
    return p;
  }

  async stored(name: string): Promise<{ md5Checksum: string; size: string } | undefined> {
    const q = encodeURIComponent(`name = '${name}'`);
    const res = await this.service.api('GET', `/store/v3/files?q=${q}&fields=files(md5Checksum,size)`, {
      token: TOKEN,
    });
    return (JSON.parse(res.body.toString()) as { files: { md5Checksum: string; size: string }[] }).files[0];
  }

  async close(): Promise<void> {
    await this.browser.close();
    await this.server.close();
    await this.proxy.close();
    await this.service.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** One throttled upload of `source` (a path), with or without a navigation to page B at 30 %. */
async function navigationRun(
  site: Site,
  source: { path: string; md5: string },
  host: Host,
  navigate: boolean,
): Promise<NavigationRun> {
  const run = `${host}-${navigate ? 'nav' : 'base'}`;
  const name = `${run}-${randomUUID()}.bin`;
  const path = join(site.dir, name);
  linkSync(source.path, path);
  const { proxy } = site;
  proxy.rate = undefined;
  const page = await site.openPage('a', host, run);
  try {
    proxy.requests.length = 0;
    proxy.rate = RATE;
    await page.setInputFiles('#file', path);
    const received = () => proxy.requests.filter(isData).reduce((sum, r) => sum + r.received, 0);
    await until(() => received() >= NAVIGATE_AT * SIZE, 'the upload reaching 30 %');
    const mark = performance.now();
    if (navigate) {
      await site.openPage('b', host, run, page);
      // The page's own worker died with page A: choose the file again at once; the engine resumes its session.
      if (host === 'dedicated') await page.setInputFiles('#file', path);
    }
    const arrivedAfterMark = () => proxy.requests.some((r) => isData(r) && r.arrivals.some((a) => a.at > mark));
    await until(() => performance.now() > mark + AFTER_MS && arrivedAfterMark(), 'bytes after the mark', 60_000);
    proxy.rate = undefined;
    await until(async () => (await site.stored(name)) !== undefined, 'the file stored', 300_000, 200);
    const file = await site.stored(name);
    if (file?.md5Checksum !== source.md5 || Number(file.size) !== SIZE)
      throw new Error(`${run}: stored other bytes: ${JSON.stringify(file)}`);
    const data = proxy.requests.filter(isData);
    const times = data.flatMap((r) => r.arrivals.map((a) => a.at));
    const quiet = longestQuiet(times, mark - BEFORE_MS, mark + AFTER_MS);
    const figures: NavigationRun = {
      asked: host,
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-conversion -- the page's value is typed, not checked; String() keeps the report text.
      host: String(await page.evaluate(() => (globalThis as unknown as { bench: { host: string } }).bench.host)),
      navigated: navigate,
      quietInWindowMs: Math.round(quiet.clipped),
      quietAroundMs: Math.round(quiet.whole),
      resentBytes: data.reduce((sum, r) => sum + r.received, 0) - SIZE,
      dataRequests: data.length,
      cutRequests: data.filter((r) => r.cut).length,
      ...after(data, mark),
    };
    console.error(`shared-engine: ${run}: ${JSON.stringify(figures)}`);
    return figures;
  } finally {
    await page.context().close();
  }
}

/** What the proxy saw of a resumed upload after the mark: the new request's first byte, the cut one's last bytes. */
function after(
  data: ProxiedRequest[],
  mark: number,
): Pick<NavigationRun, 'resumedAfterMs' | 'cutBytesAfterMark' | 'cutDrainedAfterMs'> {
  const resumed = data.find((r) => r.arrivals.length > 0 && r.arrivals[0].at > mark);
  const late = data.filter((r) => r.cut).flatMap((r) => r.arrivals.filter((a) => a.at > mark));
  return {
    ...(resumed && { resumedAfterMs: Math.round(resumed.arrivals[0].at - mark) }),
    cutBytesAfterMark: late.reduce((sum, a) => sum + a.bytes, 0),
    ...(late.length > 0 && { cutDrainedAfterMs: Math.round(late.at(-1)!.at - mark) }),
  };
}

/** The engine worker's heap with 0 and with TASKS queued tasks, the service holding every multipart upload. */
async function heapRun(site: Site, host: Host): Promise<HeapRun> {
  site.proxy.rate = undefined;
  const fault = await site.service.api('POST', '/__admin/faults', {
    token: null,
    body: {
      match: { method: 'POST', uploadType: 'multipart' },
      action: { type: 'delay', ms: 120_000 },
      times: 1_000_000,
    },
  });
  if (fault.status !== 200) throw new Error(`fault: ${fault.status} ${fault.text}`);
  const page = await site.openPage('a', host, `heap-${host}`);
  const cdp = await site.browser.newBrowserCDPSession();
  try {
    const target =
      host === 'dedicated'
        ? await findWorkerTarget(cdp, page, 'worker', /\/assets\/worker-[^/]*\.js$/)
        : await findWorkerTarget(cdp, page, 'shared_worker', /shared-worker/);
    const emptyWorkerBytes = await workerHeapAfterGc(cdp, target);
    const emptyPageBytes = await pageHeapAfterGc(page);
    const addMs = (await page.evaluate(
      (n) => (globalThis as unknown as { bench: { addSmall(n: number): Promise<number> } }).bench.addSmall(n),
      TASKS,
    )) as number;
    // Until the worker's heap settles (it has the adds; its first events and requests go out meanwhile).
    let fullWorkerBytes = await workerHeapAfterGc(cdp, target);
    for (let i = 0; i < 10; i++) {
      await sleep(1000);
      const next = await workerHeapAfterGc(cdp, target);
      const settled = Math.abs(next - fullWorkerBytes) < 0.01 * fullWorkerBytes;
      fullWorkerBytes = next;
      if (settled) break;
    }
    const fullPageBytes = await pageHeapAfterGc(page);
    const states = (await page.evaluate(() =>
      (globalThis as unknown as { bench: { states(): Record<string, number> } }).bench.states(),
    )) as Record<string, number>;
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-conversion -- the page's value is typed, not checked; String() keeps the report text.
    const pageHost = String(
      await page.evaluate(() => (globalThis as unknown as { bench: { host: string } }).bench.host),
    );
    const out: HeapRun = {
      host: pageHost,
      emptyWorkerBytes,
      fullWorkerBytes,
      emptyPageBytes,
      fullPageBytes,
      addMs: Math.round(addMs),
      states,
    };
    if (host === 'auto') {
      // Another page of the site attaching lists what the shared worker holds: every task is in it.
      const other = await site.openPage('b', host, 'heap-check', await page.context().newPage());
      out.tasksSeenByAnotherPage = (await other.evaluate(
        () =>
          (globalThis as unknown as { bench: { uploader: { snapshot: { tasks: unknown[] } } } }).bench.uploader.snapshot
            .tasks.length,
      )) as number;
    }
    console.error(`shared-engine: heap ${host}: ${JSON.stringify(out)}`);
    return out;
  } finally {
    await cdp.detach().catch(() => undefined);
    await page.context().close();
    await site.service.api('DELETE', '/__admin/faults', { token: null });
  }
}

async function measure(): Promise<Figures> {
  const site = await Site.open();
  try {
    const bytes = randomBytes(SIZE, 20);
    const source = { path: join(site.dir, 'source.bin'), md5: createHash('md5').update(bytes).digest('hex') };
    writeFileSync(source.path, bytes);
    const navigation: NavigationRun[] = [];
    // Each round's four uploads back to back, so a navigation and its baseline meet the same machine load.
    for (let round = 0; round < ROUNDS; round++) {
      for (const host of ['auto', 'dedicated'] as const)
        for (const navigate of [false, true]) navigation.push(await navigationRun(site, source, host, navigate));
    }
    const heap = [await heapRun(site, 'auto'), await heapRun(site, 'dedicated')];
    return { navigation, heap };
  } finally {
    await site.close();
  }
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const spread = (xs: number[]) => `${Math.min(...xs)}–${Math.max(...xs)}`;

/** Per host: the navigation's gap (median of the rounds and their range), as a ratio to its round's baseline, and what was re-sent. */
function navigationFigures(
  runs: NavigationRun[],
  metrics: Record<string, number | string>,
  targets: Record<string, BenchResult['targets'][string]>,
): void {
  for (const asked of ['auto', 'dedicated'] as const) {
    const base = runs.filter((r) => r.asked === asked && !r.navigated);
    const nav = runs.filter((r) => r.asked === asked && r.navigated);
    const tag = nav[0].host;
    const gaps = nav.map((r) => r.quietInWindowMs);
    const ratios = nav.map((r, i) => r.quietInWindowMs / Math.max(1, base[i].quietInWindowMs));
    const resent = Math.max(...nav.map((r) => r.resentBytes));
    Object.assign(metrics, {
      [`${tag}_navigation_quiet_ms_median`]: median(gaps),
      [`${tag}_navigation_quiet_ms_range`]: spread(gaps),
      [`${tag}_navigation_quiet_unclipped_ms_range`]: spread(nav.map((r) => r.quietAroundMs)),
      [`${tag}_baseline_quiet_ms_range`]: spread(base.map((r) => r.quietInWindowMs)),
      [`${tag}_navigation_quiet_vs_baseline_median`]: round(median(ratios)),
      [`${tag}_navigation_quiet_vs_baseline_range`]: spread(ratios.map((x) => round(x))),
      [`${tag}_navigation_resent_bytes_range`]: spread(nav.map((r) => r.resentBytes)),
      [`${tag}_baseline_resent_bytes_max`]: Math.max(...base.map((r) => r.resentBytes)),
      [`${tag}_navigation_data_requests_range`]: spread(nav.map((r) => r.dataRequests)),
      [`${tag}_navigation_cut_requests_range`]: spread(nav.map((r) => r.cutRequests)),
    });
    if (nav.some((r) => r.resumedAfterMs !== undefined))
      metrics[`${tag}_resumed_request_first_byte_after_navigation_ms_range`] = spread(
        nav.map((r) => r.resumedAfterMs ?? NaN),
      );
    if (nav.some((r) => r.cutBytesAfterMark > 0)) {
      metrics[`${tag}_cut_request_bytes_after_navigation_range`] = spread(nav.map((r) => r.cutBytesAfterMark));
      metrics[`${tag}_cut_request_last_byte_after_navigation_ms_range`] = spread(
        nav.map((r) => r.cutDrainedAfterMs ?? NaN),
      );
    }
    if (asked === 'auto') {
      const worst = Math.max(...gaps);
      targets[`${tag}_navigation_quiet_ms_max`] = {
        value: worst,
        target: `< 1000 ms (longest quiet at the proxy, ${BEFORE_MS / 1000} s before to ${AFTER_MS / 1000} s after, worst of ${nav.length})`,
        pass: worst < 1000,
      };
      targets[`${tag}_navigation_resent_bytes_max`] = { value: resent, target: '0', pass: resent === 0 };
    }
  }
}

export default async function sharedEngineBench(): Promise<BenchResult> {
  console.error(
    'bench shared-engine: navigation gap and worker heap, headless Chromium (waiting for /tmp/chromium.lock)',
  );
  const figures = runLocked<Figures>('shared-engine.bench.ts');
  const metrics: Record<string, number | string> = {
    fileBytes: SIZE,
    proxyRateBytesPerSecond: RATE,
    rounds: ROUNDS,
    window: `${BEFORE_MS} ms before to ${AFTER_MS} ms after the navigation (or 30 % in the baseline)`,
    tasks: TASKS,
  };
  const targets: Record<string, BenchResult['targets'][string]> = {};
  navigationFigures(figures.navigation, metrics, targets);
  for (const h of figures.heap) {
    metrics[`${h.host}_worker_heap_empty_bytes`] = h.emptyWorkerBytes;
    metrics[`${h.host}_worker_heap_${TASKS}_tasks_bytes`] = h.fullWorkerBytes;
    metrics[`${h.host}_worker_heap_per_task_bytes`] = Math.round((h.fullWorkerBytes - h.emptyWorkerBytes) / TASKS);
    metrics[`${h.host}_page_heap_per_task_bytes`] = Math.round((h.fullPageBytes - h.emptyPageBytes) / TASKS);
    metrics[`${h.host}_add_${TASKS}_ms`] = h.addMs;
    metrics[`${h.host}_task_states`] = JSON.stringify(h.states);
    if (h.tasksSeenByAnotherPage !== undefined)
      metrics[`${h.host}_tasks_seen_by_another_page`] = h.tasksSeenByAnotherPage;
  }
  metrics['up_front_bundle'] =
    'see the bundle bench: main_thread_up_front_gzip_bytes (npm run check-size), target ≤ 20 KiB';
  return { name: 'shared-engine', metrics, targets };
}

if (
  process.argv.includes('--run') &&
  process.argv[1] &&
  import.meta.url === pathToFileURL(resolve(process.argv[1])).href
) {
  console.log(JSON.stringify(await measure()));
}
