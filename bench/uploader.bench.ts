/**
 * The worker uploader in headless Chromium against one raw XHR `PUT`, in one run on loopback, with the real service:
 * - throughput: BENCH_SIZE_MB (default 1024) MiB through `createUploader` (MD5 on) whole-file and with 8 MiB chunks,
 *   each divided into the time of one raw XHR `PUT` of the same Blob to a resumable session (targets ≥ 0.9, ≥ 0.8);
 * - main-thread long tasks during the uploads (PerformanceObserver; target: none over 50 ms);
 * - main-thread JS heap growth during the uploads (`performance.memory`, precise; target < 64 MiB);
 * - bytes re-sent after a page reload in the middle of a whole-file upload of BENCH_RELOAD_MB (default 128) MiB over a 16 MiB/s link,
 *   counted by a proxy (target ≤ 256 KiB plus what was in flight).
 * The page is the plain-page use of the built bundle (`npx vite build` first). The Blob is one 1 MiB part repeated,
 * so the page never holds the file twice in memory. Launches Chromium: run under `flock /tmp/chromium.lock`.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { sessionBytes, startCountingProxy } from '../test/client/helpers/counting-proxy.ts';
import { startUploadPage } from '../test/client/helpers/upload-page.ts';
import { randomBytes } from '../test/e2e/demo-fixture.ts';
import { startService } from '../test/server/helpers/service.ts';
import type { BenchResult } from './types.ts';

const MiB = 1024 * 1024;
/** How fast the proxy reads during the reload phase (see `resentAfterReload`). */
const RELOAD_RATE = 16 * MiB;

/** How the suites launch Debian's Chromium (a plain JS module without types, hence the untyped import). */
async function chromiumLaunch(): Promise<{ CHROMIUM_PATH: string; CHROMIUM_ARGS: string[] }> {
  const path = '../test/browser/chromium.js';
  return (await import(path)) as { CHROMIUM_PATH: string; CHROMIUM_ARGS: string[] };
}

/** Page-side helpers, installed once: the Blob, the raw PUT, uploads through the kit, long tasks and heap samples. */
const PAGE_SETUP = `(() => {
  const bench = (window.bench = { longTasks: [], heap: [] });
  new PerformanceObserver((list) => { for (const e of list.getEntries()) bench.longTasks.push(e.duration); }).observe({ type: 'longtask', buffered: true });
  bench.makeBlob = (mib) => {
    const part = new Uint8Array(1024 * 1024);
    let x = 0x12345678;
    for (let i = 0; i < part.length; i++) { x = (Math.imul(x, 1103515245) + 12345) >>> 0; part[i] = x >>> 24; }
    const partBlob = new Blob([part]);
    bench.file = new File(new Array(mib).fill(partBlob), 'bench.bin', { type: 'application/octet-stream', lastModified: 1 });
    return bench.file.size;
  };
  bench.sampleHeap = () => {
    bench.heap = [performance.memory.usedJSHeapSize];
    bench.timer = setInterval(() => bench.heap.push(performance.memory.usedJSHeapSize), 100);
  };
  bench.stopHeap = () => { clearInterval(bench.timer); return (Math.max(...bench.heap) - bench.heap[0]) / 1048576; };
  bench.rawPut = async (service) => {
    const start = await fetch(service + '/upload/store/v3/files?uploadType=resumable&fields=id,size,md5Checksum', {
      method: 'POST',
      headers: { authorization: 'Bearer dev-token-alice', 'content-type': 'application/json; charset=UTF-8', 'x-upload-content-length': String(bench.file.size) },
      body: JSON.stringify({ name: 'raw.bin' }),
    });
    const location = start.headers.get('location');
    const t0 = performance.now();
    const text = await new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('PUT', location);
      xhr.onload = () => (xhr.status === 200 || xhr.status === 201 ? resolve(xhr.responseText) : reject(new Error('raw PUT ' + xhr.status)));
      xhr.onerror = () => reject(new Error('raw PUT network error'));
      xhr.send(bench.file);
    });
    return { ms: performance.now() - t0, file: JSON.parse(text) };
  };
  bench.kitUpload = async (service, options) => {
    const uploader = window.kit.module.createUploader({ baseUrl: service, getAccessToken: () => 'dev-token-alice', persist: false, ...options });
    try {
      await uploader.interrupted();
      bench.longTasks.length = 0;
      const t0 = performance.now();
      const file = await uploader.add(bench.file).done;
      return { ms: performance.now() - t0, file, longTasks: bench.longTasks.slice() };
    } finally {
      uploader.destroy();
    }
  };
})()`;

type Upload = { ms: number; file: { id: string; size: string; md5Checksum: string }; longTasks?: number[] };

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/** One throughput figure: the raw PUT right before the kit's upload, so both see the same machine load. */
async function compare(page: Page, service: string, options: object): Promise<{ raw: Upload; kit: Upload; heapMiB: number }> {
  const raw = (await page.evaluate(`bench.rawPut(${JSON.stringify(service)})`)) as Upload;
  await page.evaluate('bench.sampleHeap()');
  const kit = (await page.evaluate(`bench.kitUpload(${JSON.stringify(service)}, ${JSON.stringify(options)})`)) as Upload;
  const heapMiB = (await page.evaluate('bench.stopHeap()')) as number;
  if (kit.file.md5Checksum !== raw.file.md5Checksum || kit.file.size !== raw.file.size) throw new Error(`stored files differ: ${JSON.stringify([raw.file, kit.file])}`);
  return { raw, kit, heapMiB };
}

/**
 * Reloads the page in the middle of a whole-file upload and counts what is sent again after it. The proxy reads at
 * RELOAD_RATE, below what the service absorbs, so "in flight" (bytes the proxy received but had not handed on) is
 * what it measures: unthrottled on loopback, megabytes sit in socket and stream buffers the service never reads
 * once the connection is cut, and no client can avoid re-sending those.
 */
async function resentAfterReload(page: Page, serviceUrl: string, pageUrl: (service: string, options?: object) => string, sizeMiB: number) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-reload-'));
  const proxy = await startCountingProxy(serviceUrl, RELOAD_RATE);
  try {
    const size = sizeMiB * MiB;
    const path = join(dir, `reload-${Date.now()}.bin`);
    const bytes = randomBytes(size, 3);
    writeFileSync(path, bytes);
    const md5 = createHash('md5').update(bytes).digest('hex');
    await page.goto(pageUrl(proxy.url, { resumableThreshold: 0 }));
    await page.waitForFunction(() => 'kit' in globalThis);
    await page.setInputFiles('#file', path);
    const dataPut = () => proxy.requests.find((r) => r.method === 'PUT' && r.url.includes('upload_id='));
    for (let i = 0; (dataPut()?.received ?? 0) < size * 0.4; i++) {
      if (i > 6000) throw new Error('the upload never got under way');
      await new Promise((r) => setTimeout(r, 5));
    }
    await page.reload();
    await page.waitForFunction(() => 'kit' in globalThis);
    for (let i = 0; !proxy.requests.some((r) => r.cut); i++) {
      if (i > 200) throw new Error('the reload did not cut the upload');
      await new Promise((r) => setTimeout(r, 50));
    }
    const cut = proxy.requests.find((r) => r.cut)!;
    const inFlight = cut.received - cut.forwarded;
    proxy.rate = undefined;
    await page.setInputFiles('#file', path);
    const handle = await page.waitForFunction(() => (globalThis as unknown as { kit: { results: unknown[] } }).kit.results[0], undefined, { timeout: 300_000 });
    const outcome = (await handle.jsonValue()) as { ok: boolean; file?: { md5Checksum: string }; message?: string };
    if (!outcome.ok || outcome.file?.md5Checksum !== md5) throw new Error(`resumed upload failed or differs: ${JSON.stringify(outcome)}`);
    return { resent: sessionBytes(proxy.requests) - size, inFlight, cutAt: cut.received };
  } finally {
    await proxy.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs the uploader benchmark. */
export default async function uploaderBench(): Promise<BenchResult> {
  const sizeMiB = Number(process.env.BENCH_SIZE_MB ?? 1024);
  const reloadMiB = Number(process.env.BENCH_RELOAD_MB ?? Math.min(128, sizeMiB));
  const scratch = mkdtempSync(join(tmpdir(), 'store-bench-uploader-'));
  const service = await startService({ dataDir: join(scratch, 'data') });
  const pages = await startUploadPage();
  const { CHROMIUM_PATH, CHROMIUM_ARGS } = await chromiumLaunch();
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS, '--enable-precise-memory-info'] });
  try {
    const page = await browser.newPage();
    await page.goto(pages.url(service.url, { persist: false }));
    await page.waitForFunction(() => 'kit' in globalThis);
    await page.evaluate(PAGE_SETUP);
    await page.evaluate(`bench.makeBlob(${sizeMiB})`);
    console.error(`uploader: ${sizeMiB} MiB whole-file…`);
    const whole = await compare(page, service.url, { resumableThreshold: 0 });
    console.error(`uploader: raw ${round(whole.raw.ms / 1000)} s, kit ${round(whole.kit.ms / 1000)} s; 8 MiB chunks…`);
    const chunked = await compare(page, service.url, { resumableThreshold: 0, chunkSize: 8 * MiB });
    console.error(`uploader: raw ${round(chunked.raw.ms / 1000)} s, kit ${round(chunked.kit.ms / 1000)} s; reload at 40 % of ${reloadMiB} MiB…`);
    const reload = await resentAfterReload(page, service.url, pages.url, reloadMiB);
    console.error(`uploader: re-sent ${reload.resent} bytes, in flight ${reload.inFlight}`);

    const longTasks = [...(whole.kit.longTasks ?? []), ...(chunked.kit.longTasks ?? [])];
    const longest = round(Math.max(0, ...longTasks), 1);
    const heap = round(Math.max(whole.heapMiB, chunked.heapMiB), 1);
    const wholeRatio = round(whole.raw.ms / whole.kit.ms);
    const chunkRatio = round(chunked.raw.ms / chunked.kit.ms);
    const mibps = (ms: number) => round(sizeMiB / (ms / 1000), 1);
    const resentLimit = 256 * 1024 + reload.inFlight;
    return {
      name: 'uploader',
      metrics: {
        sizeMiB,
        rawWholeMiBps: mibps(whole.raw.ms),
        kitWholeMiBps: mibps(whole.kit.ms),
        rawBeforeChunkedMiBps: mibps(chunked.raw.ms),
        kitChunked8MiBMiBps: mibps(chunked.kit.ms),
        longTasksOver50ms: longTasks.filter((d) => d > 50).length,
        longestTaskMs: longest,
        heapGrowthMiB: heap,
        reloadSizeMiB: reloadMiB,
        reloadLinkMiBps: RELOAD_RATE / MiB,
        reloadCutAtBytes: reload.cutAt,
        resentBytes: reload.resent,
        inFlightBytes: reload.inFlight,
      },
      targets: {
        wholeFileRatio: { value: wholeRatio, target: '≥ 0.9', pass: wholeRatio >= 0.9 },
        chunked8MiBRatio: { value: chunkRatio, target: '≥ 0.8', pass: chunkRatio >= 0.8 },
        longestMainThreadTaskMs: { value: longest, target: '≤ 50', pass: longest <= 50 },
        heapGrowthMiB: { value: heap, target: '< 64', pass: heap < 64 },
        resentAfterReloadBytes: { value: reload.resent, target: `≤ ${resentLimit}`, pass: reload.resent <= resentLimit },
      },
    };
  } finally {
    await browser.close();
    await pages.stop();
    await service.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}
