/**
 * The worker uploader in headless Chromium against raw XHR uploads into the same real service on loopback, in one run
 * (issue 14). For each size (BENCH_SIZES_MB, default "256,1024") and each of BENCH_RUNS (default 3) rounds, in order:
 * a raw XHR `PUT` of the whole Blob, the kit whole-file with verification on, the kit whole-file with `verify: false`,
 * a raw loop of 8 MiB `PUT`s (each waits for its 308; `BENCH_CHUNK_MB` sets another size, a multiple of 0.25), and
 * the kit with chunks of that size, verification on and off. Each time
 * includes the session start. Reported per size: median and min–max of each, the ratios kit ÷ raw (targets ≤ 1.10),
 * the browser's extra CPU for verification per GiB (CPU time of every Chromium process, verify on − verify off), and
 * the progress snapshots per second (the fewest in any one-second window of an upload, and the longest gap), and
 * the floor of each ratio on this machine: the core-seconds the raw upload left idle (`/proc/stat`) against the
 * verification's extra CPU (`floorRatio`), so a ratio over 1.10 can be told apart from a machine with no core to spare.
 * Then: main-thread long tasks and heap growth during the uploads, and the bytes re-sent after a page reload in the
 * middle of a BENCH_RELOAD_MB (default 128) MiB upload over a 16 MiB/s link, counted by a proxy.
 * The file is read from disk, chosen through a file input as a page gets it (`BENCH_SOURCE=memory`: the earlier Blob of
 * references to one 1 MiB Blob in memory, which Chromium reads cache-hot; issue 21 found the two disagree), and every
 * kit upload starts a fresh uploader.
 * `BENCH_QUICK=1`: 256 MiB, 3 rounds, 64 MiB reload (a few minutes). The page is the plain-page use of the built
 * bundle (`npx vite build` first). Launches Chromium: run under `flock /tmp/chromium.lock`.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { sessionBytes, startCountingProxy } from '../test/client/helpers/counting-proxy.ts';
import { startUploadPage } from '../test/client/helpers/upload-page.ts';
import { randomBytes } from '../test/e2e/demo-fixture.ts';
import { startService } from '../test/server/helpers/service.ts';
import type { BenchResult } from './types.ts';
import { CPU_PARTS, cpuSpent, readChromiumCpu, type CpuPart } from './chromium-cpu.ts';

const MiB = 1024 * 1024;
/** How fast the proxy reads during the reload phase (see `resentAfterReload`). */
const RELOAD_RATE = 16 * MiB;
/** Chunk size of the chunked contenders (`BENCH_CHUNK_MB`, default 8: issue 14's figure; 1 is where adaptive chunks start). */
const CHUNK_MIB = Number(process.env.BENCH_CHUNK_MB ?? 8);

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
  // A file chosen from disk, as a page gets it (the default): the Blob above is one 1 MiB item referenced mib
  // times, which Chromium reads from memory, cache-hot, where a page's file is read from disk through the browser.
  const source = Object.assign(document.createElement('input'), { type: 'file', id: 'file-source' });
  document.body.append(source);
  bench.pickFile = () => {
    bench.file = source.files[0];
    return bench.file.size;
  };
  bench.sampleHeap = () => {
    bench.heap = [performance.memory.usedJSHeapSize];
    bench.timer = setInterval(() => bench.heap.push(performance.memory.usedJSHeapSize), 100);
  };
  bench.stopHeap = () => { clearInterval(bench.timer); return (Math.max(...bench.heap) - bench.heap[0]) / 1048576; };
  bench.startSession = async (service, name) => {
    const start = await fetch(service + '/upload/store/v3/files?uploadType=resumable&fields=id,size,md5Checksum', {
      method: 'POST',
      headers: { authorization: 'Bearer dev-token-alice', 'content-type': 'application/json; charset=UTF-8', 'x-upload-content-length': String(bench.file.size) },
      body: JSON.stringify({ name }),
    });
    return start.headers.get('location');
  };
  bench.put = (location, body, range) => new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', location);
    if (range) xhr.setRequestHeader('content-range', range);
    xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText });
    xhr.onerror = () => reject(new Error('raw PUT network error'));
    xhr.send(body);
  });
  bench.rawPut = async (service) => {
    const t0 = performance.now();
    const location = await bench.startSession(service, 'raw.bin');
    const res = await bench.put(location, bench.file);
    if (res.status !== 200 && res.status !== 201) throw new Error('raw PUT ' + res.status);
    return { ms: performance.now() - t0, file: JSON.parse(res.text) };
  };
  bench.rawChunks = async (service, chunk) => {
    const t0 = performance.now();
    const location = await bench.startSession(service, 'raw-chunks.bin');
    const total = bench.file.size;
    for (let at = 0; ; ) {
      const end = Math.min(total, at + chunk);
      const res = await bench.put(location, bench.file.slice(at, end), 'bytes ' + at + '-' + (end - 1) + '/' + total);
      if (res.status === 200 || res.status === 201) return { ms: performance.now() - t0, file: JSON.parse(res.text) };
      if (res.status !== 308) throw new Error('raw chunk ' + res.status);
      at = end; // whole 256 KiB blocks: the service keeps all of it
    }
  };
  // Issue 40's baseline for verification: the kit's own hash path alone (its tracker, in a dedicated worker of this
  // page) over the same chosen file, answered in the shape of an upload so the rounds treat it as one.
  bench.md5Read = () => new Promise((resolve, reject) => {
    const worker = bench.md5Worker;
    worker.onmessage = (e) => resolve({ ms: e.data.ms, file: { size: String(bench.file.size), md5Checksum: e.data.md5 } });
    worker.onerror = (e) => reject(new Error('md5 worker: ' + e.message));
    worker.postMessage(bench.file);
  });
  bench.kitUpload = async (service, options) => {
    const uploader = window.kit.module.createUploader({ baseUrl: service, getAccessToken: () => 'dev-token-alice', ...options });
    try {
      await uploader.interrupted();
      bench.longTasks.length = 0;
      const progress = [];
      uploader.addEventListener('progress', () => progress.push(performance.now()));
      const t0 = performance.now();
      const file = await uploader.add(bench.file).done;
      const ms = performance.now() - t0;
      return { ms, file, longTasks: bench.longTasks.slice(), progress: progress.map((t) => t - t0) };
    } finally {
      uploader.destroy();
    }
  };
})()`;

/** The 1 MiB the page's makeBlob repeats, so a file on disk holds the same bytes (and MD5) as the in-memory Blob. */
function seedMiB(): Buffer {
  const part = Buffer.alloc(MiB);
  let x = 0x12345678;
  for (let i = 0; i < part.length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    part[i] = x >>> 24;
  }
  return part;
}

type Upload = {
  ms: number;
  file: { id: string; size: string; md5Checksum: string };
  longTasks?: number[];
  progress?: number[];
};

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The fewest progress snapshots in any one-second window of an upload (a window every 50 ms), and the longest gap. */
function progressRate(upload: Upload): { perSecondMin: number; longestGapMs: number } {
  const times = upload.progress ?? [];
  const points = [0, ...times, upload.ms];
  const longestGapMs = round(Math.max(...points.slice(1).map((t, i) => t - points[i])), 0);
  if (upload.ms < 1000) return { perSecondMin: round((times.length * 1000) / upload.ms, 1), longestGapMs };
  let fewest = Infinity;
  for (let from = 0; from + 1000 <= upload.ms; from += 50)
    fewest = Math.min(fewest, times.filter((t) => t >= from && t < from + 1000).length);
  return { perSecondMin: fewest, longestGapMs };
}

/** Core-seconds the whole machine has left idle so far (`/proc/stat`: idle + iowait; time stolen by the host is not idle). */
function idleCoreSeconds(): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return (fields[3] + fields[4]) / 100;
}

/**
 * One upload, timed in the page, with the browser's CPU seconds (in all and by part: page, workers, network service,
 * browser process; `chromium-cpu.ts`) and the machine's idle core-seconds around it.
 */
async function timed(page: Page, pid: number, call: string): Promise<Timed> {
  const before = readChromiumCpu(pid);
  const idleBefore = idleCoreSeconds();
  const upload = (await page.evaluate(call)) as Upload;
  const parts = cpuSpent(before, readChromiumCpu(pid));
  const cpu = CPU_PARTS.reduce((sum, part) => sum + parts[part], 0);
  return { ...upload, cpu, parts, idle: idleCoreSeconds() - idleBefore };
}

/**
 * The least time ÷ raw time any client could reach on this machine when it adds `extraCpu` core-seconds of work
 * (reading and hashing) to the raw upload: the extra work first fills the cores the raw upload left idle, and what
 * does not fit there lengthens the upload, spread over every core. A lower bound: it assumes perfect overlap.
 */
function floorRatio(raw: Timed, extraCpu: number): number {
  return 1 + Math.max(0, extraCpu - raw.idle) / (availableParallelism() * (raw.ms / 1000));
}

const CONTENDERS = [
  'rawWhole',
  'kitWhole',
  'kitWholeNoVerify',
  'md5Read',
  'rawChunks',
  'kitChunks',
  'kitChunksNoVerify',
] as const;
type Contender = (typeof CONTENDERS)[number];
type Timed = Upload & { cpu: number; parts: Record<CpuPart, number>; idle: number };

/** One round at one size: the six uploads back to back, so each ratio compares uploads at the same machine load. */
async function oneRound(page: Page, pid: number, service: string): Promise<Record<Contender, Timed>> {
  const s = JSON.stringify(service);
  const chunk = CHUNK_MIB * MiB;
  const out = {} as Record<Contender, Timed>;
  out.rawWhole = await timed(page, pid, `bench.rawPut(${s})`);
  out.kitWhole = await timed(page, pid, `bench.kitUpload(${s}, { resumableThreshold: 0 })`);
  out.kitWholeNoVerify = await timed(page, pid, `bench.kitUpload(${s}, { resumableThreshold: 0, verify: false })`);
  out.md5Read = await timed(page, pid, 'bench.md5Read()');
  out.rawChunks = await timed(page, pid, `bench.rawChunks(${s}, ${chunk})`);
  out.kitChunks = await timed(page, pid, `bench.kitUpload(${s}, { resumableThreshold: 0, chunkSize: ${chunk} })`);
  out.kitChunksNoVerify = await timed(
    page,
    pid,
    `bench.kitUpload(${s}, { resumableThreshold: 0, chunkSize: ${chunk}, verify: false })`,
  );
  for (const c of CONTENDERS) {
    const f = out[c].file;
    if (f.md5Checksum !== out.rawWhole.file.md5Checksum || f.size !== out.rawWhole.file.size)
      throw new Error(`${c} stored other bytes: ${JSON.stringify([out.rawWhole.file, f])}`);
  }
  return out;
}

/**
 * Reloads the page in the middle of a whole-file upload and counts what is sent again after it. The proxy reads at
 * RELOAD_RATE, below what the service absorbs, so "in flight" (bytes the proxy received but had not handed on) is
 * what it measures: unthrottled on loopback, megabytes sit in socket and stream buffers the service never reads
 * once the connection is cut, and no client can avoid re-sending those.
 */
async function resentAfterReload(
  page: Page,
  serviceUrl: string,
  pageUrl: (service: string, options?: object) => string,
  sizeMiB: number,
) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-reload-'));
  const proxy = await startCountingProxy(serviceUrl, RELOAD_RATE);
  try {
    const size = sizeMiB * MiB;
    const path = join(dir, `reload-${Date.now()}.bin`);
    const bytes = randomBytes(size, 3);
    writeFileSync(path, bytes);
    const md5 = createHash('md5').update(bytes).digest('hex');
    // The page's own worker: the site's shared worker (the default) outlives a reload by design, and its upload is
    // never cut (shared-engine.bench.ts measures that); this measures what a reload that does cut re-sends.
    await page.goto(pageUrl(proxy.url, { resumableThreshold: 0, host: 'dedicated' }));
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
    const handle = await page.waitForFunction(
      () => (globalThis as unknown as { kit: { results: unknown[] } }).kit.results[0],
      undefined,
      { timeout: 300_000 },
    );
    const outcome = (await handle.jsonValue()) as { ok: boolean; file?: { md5Checksum: string }; message?: string };
    if (!outcome.ok || outcome.file?.md5Checksum !== md5)
      throw new Error(`resumed upload failed or differs: ${JSON.stringify(outcome)}`);
    return { resent: sessionBytes(proxy.requests) - size, inFlight, cutAt: cut.received };
  } finally {
    await proxy.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The kit's hash path alone, bundled as the hash worker bundles it: a worker that answers a Blob's MD5 and its time. */
async function md5WorkerScript(): Promise<string> {
  const { build } = await import('esbuild');
  const out = await build({
    stdin: {
      contents: `import { Md5Tracker } from './src/uploader/engine/hashing/md5-tracker.ts';
        onmessage = async (e) => {
          const t0 = performance.now();
          const tracker = await Md5Tracker.open('auto');
          const md5 = await tracker.digest(e.data, e.data.size);
          tracker.close();
          postMessage({ ms: performance.now() - t0, md5 });
        };`,
      resolveDir: join(import.meta.dirname, '..'),
      loader: 'ts',
      sourcefile: 'bench-md5-worker.ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'error',
  });
  return out.outputFiles[0].text;
}

/** Runs the uploader benchmark. */
export default async function uploaderBench(): Promise<BenchResult> {
  const quick = process.env.BENCH_QUICK === '1';
  const sizes = (process.env.BENCH_SIZES_MB ?? (quick ? '256' : '256,1024')).split(',').map(Number);
  const runs = Number(process.env.BENCH_RUNS ?? 3);
  const reloadMiB = Number(process.env.BENCH_RELOAD_MB ?? (quick ? 64 : 128));
  const scratch = mkdtempSync(join(tmpdir(), 'store-bench-uploader-'));
  const service = await startService({ dataDir: join(scratch, 'data') });
  const pages = await startUploadPage();
  const { CHROMIUM_PATH, CHROMIUM_ARGS } = await chromiumLaunch();
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS, '--enable-precise-memory-info'],
  });
  const pid = process.pid;
  const fromDisk = process.env.BENCH_SOURCE !== 'memory';
  const metrics: Record<string, number | string> = {
    sizesMiB: sizes.join(','),
    runs,
    source: fromDisk ? 'file from disk' : 'Blob of 1 MiB references in memory',
  };
  const targets: Record<string, BenchResult['targets'][string]> = {};
  try {
    const page = await browser.newPage();
    await page.goto(pages.url(service.url, { persist: false }));
    await page.waitForFunction(() => 'kit' in globalThis);
    await page.evaluate(PAGE_SETUP);
    // A string, not a function: this file is type-checked for Node, where `Worker` is not the page's.
    await page.evaluate(
      `bench.md5Worker = new Worker(URL.createObjectURL(new Blob([${JSON.stringify(await md5WorkerScript())}], { type: 'text/javascript' })), { type: 'module' })`,
    );
    const longTasks: number[] = [];
    let heap = 0;
    for (const sizeMiB of sizes) {
      if (fromDisk) {
        const path = join(scratch, `bench-${sizeMiB}.bin`);
        writeFileSync(path, Buffer.concat(new Array<Buffer>(sizeMiB).fill(seedMiB())));
        await page.setInputFiles('#file-source', path);
        await page.evaluate('bench.pickFile()');
      } else await page.evaluate(`bench.makeBlob(${sizeMiB})`);
      const rounds: Record<Contender, Timed>[] = [];
      for (let r = 0; r < runs; r++) {
        await page.evaluate('bench.sampleHeap()');
        const last = await oneRound(page, pid, service.url);
        rounds.push(last);
        heap = Math.max(heap, (await page.evaluate('bench.stopHeap()')) as number);
        console.error(
          `uploader: ${sizeMiB} MiB round ${r + 1}: ${CONTENDERS.map((c) => `${c} ${round(last[c].ms / 1000)} s`).join(', ')}`,
        );
        for (const c of ['kitWhole', 'kitChunks', 'kitWholeNoVerify', 'kitChunksNoVerify'] as const)
          longTasks.push(...(last[c].longTasks ?? []));
      }
      const tag = sizeMiB >= 1024 ? `${sizeMiB / 1024}GiB` : `${sizeMiB}MiB`;
      for (const c of CONTENDERS) {
        const secs = rounds.map((x) => x[c].ms / 1000);
        metrics[`${tag}_${c}_s_median`] = round(median(secs));
        metrics[`${tag}_${c}_s_range`] = `${round(Math.min(...secs))}–${round(Math.max(...secs))}`;
        metrics[`${tag}_${c}_browserCpu_s_median`] = round(median(rounds.map((x) => x[c].cpu)));
      }
      // CPU-seconds per GiB of every Chromium process (page, upload worker, hash worker, network, browser), each
      // contender in the same rounds: a figure a loaded machine moves far less than wall time (issue 32).
      const perGiB = (c: Contender) => round(median(rounds.map((x) => x[c].cpu)) * (1024 / sizeMiB));
      for (const c of ['rawWhole', 'kitWhole', 'kitWholeNoVerify', 'md5Read', 'rawChunks', 'kitChunks'] as const) {
        targets[`${tag}_${c}_browserCpu_s_perGiB`] = { value: perGiB(c), target: 'reported', pass: true };
        // Where each CPU-second goes (issue 40): page, workers, network service, browser process, the rest.
        for (const part of CPU_PARTS)
          metrics[`${tag}_${c}_cpu_${part}_s_perGiB`] = round(
            median(rounds.map((x) => x[c].parts[part])) * (1024 / sizeMiB),
          );
      }
      // Issue 40: the kit's whole file with verification off within 1.15 × the raw PUT's CPU (one read per byte).
      const cpuRatio = round(perGiB('kitWholeNoVerify') / perGiB('rawWhole'));
      targets[`${tag}_wholeVerifyOff_cpu_vs_rawPut`] = { value: cpuRatio, target: '≤ 1.15', pass: cpuRatio <= 1.15 };
      // And with verification on, within 1.15 × (the raw PUT's + the kit's hash path alone over the same file).
      const verifyRatio = round(perGiB('kitWhole') / (perGiB('rawWhole') + perGiB('md5Read')));
      targets[`${tag}_wholeVerifyOn_cpu_vs_rawPutPlusMd5Read`] = {
        value: verifyRatio,
        target: '≤ 1.15',
        pass: verifyRatio <= 1.15,
      };
      const ratio = (kit: Contender, raw: Contender) => rounds.map((x) => x[kit].ms / x[raw].ms);
      const wholeRatios = ratio('kitWhole', 'rawWhole');
      const chunkRatios = ratio('kitChunks', 'rawChunks');
      metrics[`${tag}_wholeVerifyOff_ratio_median`] = round(median(ratio('kitWholeNoVerify', 'rawWhole')));
      metrics[`${tag}_chunksVerifyOff_ratio_median`] = round(median(ratio('kitChunksNoVerify', 'rawChunks')));
      metrics[`${tag}_whole_ratio_range`] = `${round(Math.min(...wholeRatios))}–${round(Math.max(...wholeRatios))}`;
      metrics[`${tag}_chunks_ratio_range`] = `${round(Math.min(...chunkRatios))}–${round(Math.max(...chunkRatios))}`;
      metrics[`${tag}_verifyExtraBrowserCpu_s_perGiB`] = round(
        median(rounds.map((x) => x.kitWhole.cpu - x.kitWholeNoVerify.cpu)) * (1024 / sizeMiB),
      );
      // Whether 1.10 is within this machine's reach: the cores the raw uploads left idle against the verification's
      // extra CPU (same round, same load).
      metrics[`${tag}_rawWhole_idleCoreSeconds_median`] = round(median(rounds.map((x) => x.rawWhole.idle)));
      metrics[`${tag}_rawChunks_idleCoreSeconds_median`] = round(median(rounds.map((x) => x.rawChunks.idle)));
      metrics[`${tag}_whole_floorRatio_median`] = round(
        median(rounds.map((x) => floorRatio(x.rawWhole, x.kitWhole.cpu - x.kitWholeNoVerify.cpu))),
      );
      metrics[`${tag}_chunks_floorRatio_median`] = round(
        median(rounds.map((x) => floorRatio(x.rawChunks, x.kitChunks.cpu - x.kitChunksNoVerify.cpu))),
      );
      const rates = rounds.flatMap((x) =>
        (['kitWhole', 'kitWholeNoVerify', 'kitChunks', 'kitChunksNoVerify'] as const).map((c) => progressRate(x[c])),
      );
      const fewest = Math.min(...rates.map((r) => r.perSecondMin));
      metrics[`${tag}_progress_longestGap_ms`] = Math.max(...rates.map((r) => r.longestGapMs));
      const wholeMedian = round(median(wholeRatios));
      const chunkMedian = round(median(chunkRatios));
      // Issue 40: the loopback time of a whole file within 1.2 × a raw PUT (issue 14 asked 1.10).
      targets[`${tag}_wholeVerifyOn_time_vs_rawPut`] = {
        value: wholeMedian,
        target: '≤ 1.2',
        pass: wholeMedian <= 1.2,
      };
      targets[`${tag}_chunks${CHUNK_MIB}MiB_time_vs_rawChunkLoop`] = {
        value: chunkMedian,
        target: '≤ 1.10',
        pass: chunkMedian <= 1.1,
      };
      targets[`${tag}_progressSnapshotsPerSecond_min`] = { value: fewest, target: '≥ 4', pass: fewest >= 4 };
    }
    console.error(`uploader: reload at 40 % of ${reloadMiB} MiB…`);
    const reload = await resentAfterReload(page, service.url, pages.url, reloadMiB);
    console.error(`uploader: re-sent ${reload.resent} bytes, in flight ${reload.inFlight}`);
    const longest = round(Math.max(0, ...longTasks), 1);
    const heapMiB = round(heap, 1);
    const resentLimit = 256 * 1024 + reload.inFlight;
    Object.assign(metrics, {
      longTasksOver50ms: longTasks.filter((d) => d > 50).length,
      reloadSizeMiB: reloadMiB,
      reloadCutAtBytes: reload.cutAt,
      resentBytes: reload.resent,
      inFlightBytes: reload.inFlight,
    });
    targets.longestMainThreadTaskMs = { value: longest, target: '≤ 50', pass: longest <= 50 };
    targets.heapGrowthMiB = { value: heapMiB, target: '< 64', pass: heapMiB < 64 };
    targets.resentAfterReloadBytes = {
      value: reload.resent,
      target: `≤ ${resentLimit}`,
      pass: reload.resent <= resentLimit,
    };
    return { name: 'uploader', metrics, targets };
  } finally {
    await browser.close();
    await pages.stop();
    await service.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}
