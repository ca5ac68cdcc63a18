/**
 * The worker uploader in headless Chromium against raw XHR uploads into the same real service on loopback, in one run
 * (issue 14). For each size (BENCH_SIZES_MB, default "256,1024") and each of BENCH_RUNS (default 3) rounds, in order:
 * a raw XHR `PUT` of the whole Blob, the same with an upload progress listener (issue 40), the kit whole-file with
 * verification on, the kit whole-file with `verify: false`, the kit's hash path alone, the raw PUT with a listener and
 * the hash path alone at once (what this machine allows a verified upload, issue 40), a raw loop of 8 MiB `PUT`s
 * (each waits for its 308; `BENCH_CHUNK_MB` sets another size, a multiple of 0.25), and the kit with chunks of that
 * size, verification on and off. Each time
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
 * `BENCH_QUICK=1`: 256 MiB, 3 rounds, 64 MiB reload (a few minutes). `BENCH_UPLOADER_CONTENDERS=a,b`: only those
 * contenders (and the raw PUT), their order turned by one each round, among them the raw PUT's variants of
 * `raw-put-variants.ts`; `BENCH_RELOAD_MB=0`: no reload phase. The page is the plain-page use of the built
 * bundle (`npx vite build` first). Launches Chromium: run under `flock /tmp/chromium.lock`.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { sessionBytes, startCountingProxy } from '../test/client/helpers/counting-proxy.ts';
import { startUploadPage } from '../test/client/helpers/upload-page.ts';
import { randomBytes } from '../test/e2e/demo-fixture.ts';
import { startService } from '../test/server/helpers/service.ts';
import type { BenchResult } from './types.ts';
import { CPU_PARTS, cpuSpent, readChromiumCpu } from './chromium-cpu.ts';
import { RAW_PUT_PAGE_SETUP, RAW_PUT_VARIANTS, type RawPutVariant } from './raw-put-variants.ts';
import { round, sizeFigures, type Round, type Timed, type Upload } from './uploader-figures.ts';

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
  // The two jobs of a verified upload at once, each where it costs least and with nothing of the kit's between them:
  // the raw PUT with a progress listener, and the kit's hash path alone in the page's dedicated worker over the same
  // file. Its time (until both end) is what this machine allows a verified upload; the kit's time is judged beside it.
  bench.rawPutWithMd5 = async (service) => {
    const t0 = performance.now();
    const [put, md5] = await Promise.all([bench.rawPutVariant(service, { progress: true }), bench.md5Read()]);
    if (md5.file.md5Checksum !== put.file.md5Checksum) throw new Error('the hash path read other bytes than were stored');
    return { ms: performance.now() - t0, file: put.file, sentMs: put.sentMs, answeredMs: put.answeredMs, md5Ms: md5.ms };
  };
  bench.kitUpload = async (service, options) => {
    const uploader = window.kit.module.createUploader({ baseUrl: service, getAccessToken: () => 'dev-token-alice', ...options });
    try {
      await uploader.interrupted();
      bench.longTasks.length = 0;
      const progress = [];
      // When the page first heard that every byte was sent, and that the service acknowledged them (its answer).
      let sentAt, answeredAt;
      uploader.addEventListener('progress', (e) => {
        const now = performance.now();
        progress.push(now);
        const task = e.detail;
        if (sentAt === undefined && task.bytesSent >= task.total) sentAt = now;
        if (answeredAt === undefined && task.bytesAcknowledged >= task.total) answeredAt = now;
      });
      const t0 = performance.now();
      const file = await uploader.add(bench.file).done;
      const ms = performance.now() - t0;
      return { ms, file, longTasks: bench.longTasks.slice(), progress: progress.map((t) => t - t0), sentMs: sentAt - t0, answeredMs: answeredAt - t0 };
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

/** Core-seconds the whole machine has left idle so far (`/proc/stat`: idle + iowait; time stolen by the host is not idle). */
function idleCoreSeconds(): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return (fields[3] + fields[4]) / 100;
}

/**
 * One upload, timed in the page, with the browser's CPU seconds (in all and by part: page, workers, network service,
 * browser process; `chromium-cpu.ts`) and the machine's idle core-seconds around it.
 */
async function timed(page: Page, pid: number, call: string, servicePid: number): Promise<Timed> {
  const before = readChromiumCpu(pid);
  const idleBefore = idleCoreSeconds();
  const serviceBefore = processCpuSeconds(servicePid);
  const upload = (await answerWithin(page.evaluate(call), ANSWER_LIMIT_MS, call)) as Upload;
  const parts = cpuSpent(before, readChromiumCpu(pid));
  const cpu = CPU_PARTS.reduce((sum, part) => sum + parts[part], 0);
  const serviceCpu = processCpuSeconds(servicePid) - serviceBefore;
  return { ...upload, cpu, parts, idle: idleCoreSeconds() - idleBefore, serviceCpu };
}

/** How long one contender may take at 1 GiB on a loaded machine (runs took 4–25 s) before the run is given up. */
const ANSWER_LIMIT_MS = 300_000;

/** `answer`, or a rejection naming `call` once `ms` have passed: an upload that never ends must not hang the bench. */
async function answerWithin<T>(answer: Promise<T>, ms: number, call: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer to ${call} within ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** User + system CPU seconds of one process so far (the service: it receives, hashes and writes every upload). */
function processCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * Every contender, in the order of a default round. `rawWholeProgress` is the raw PUT with an upload progress listener,
 * as the kit's (issue 40: the listener alone costs the network service CPU); `rawWholeWithMd5` is that PUT and the
 * hash path alone at once; the other raw variants run only when `BENCH_UPLOADER_CONTENDERS` names them.
 */
const CONTENDERS = [
  'rawWhole',
  'rawWholeProgress',
  'kitWhole',
  'kitWholeNoVerify',
  'md5Read',
  'rawWholeWithMd5',
  'rawChunks',
  'kitChunks',
  'kitChunksNoVerify',
  'rawWholeWorker',
  'rawWholeSharedWorker',
  'rawWholeSharedWorkerProgress',
] as const;
type Contender = (typeof CONTENDERS)[number];
/** A default round: every contender but the raw variants that only a study names. */
const DEFAULT_CONTENDERS = CONTENDERS.slice(0, 9);

/** The contenders of this run: `BENCH_UPLOADER_CONTENDERS` (comma-separated, `rawWhole` always in) or the default. */
function chosenContenders(): readonly Contender[] {
  const named = process.env.BENCH_UPLOADER_CONTENDERS?.split(',').map((c) => c.trim());
  if (!named) return DEFAULT_CONTENDERS;
  const unknown = named.filter((c) => !(CONTENDERS as readonly string[]).includes(c));
  if (unknown.length > 0) throw new Error(`unknown contenders ${unknown.join(', ')}; known: ${CONTENDERS.join(', ')}`);
  return CONTENDERS.filter((c) => c === 'rawWhole' || named.includes(c));
}

/** What each contender runs in the page, given the service URL (JSON) and the chunk size. */
function callOf(c: Contender, s: string, chunk: number): string {
  if (c in RAW_PUT_VARIANTS)
    return `bench.rawPutVariant(${s}, ${JSON.stringify(RAW_PUT_VARIANTS[c as RawPutVariant])})`;
  switch (c) {
    case 'rawWhole':
      return `bench.rawPut(${s})`;
    case 'kitWhole':
      return `bench.kitUpload(${s}, { resumableThreshold: 0 })`;
    case 'kitWholeNoVerify':
      return `bench.kitUpload(${s}, { resumableThreshold: 0, verify: false })`;
    case 'md5Read':
      return 'bench.md5Read()';
    case 'rawWholeWithMd5':
      return `bench.rawPutWithMd5(${s})`;
    case 'rawChunks':
      return `bench.rawChunks(${s}, ${chunk})`;
    case 'kitChunks':
      return `bench.kitUpload(${s}, { resumableThreshold: 0, chunkSize: ${chunk} })`;
    case 'kitChunksNoVerify':
      return `bench.kitUpload(${s}, { resumableThreshold: 0, chunkSize: ${chunk}, verify: false })`;
    default:
      throw new Error(`no call for ${c}`);
  }
}

/**
 * One round at one size: the uploads back to back, so each ratio compares uploads at the same machine load. With
 * `rotate`, round r starts at the r-th contender, so no variant always follows the same one.
 */
async function oneRound(
  page: Page,
  pid: number,
  service: string,
  servicePid: number,
  contenders: readonly Contender[],
  rotate: number,
): Promise<Round> {
  const s = JSON.stringify(service);
  const chunk = CHUNK_MIB * MiB;
  const out: Round = {};
  const at = rotate % contenders.length;
  for (const c of [...contenders.slice(at), ...contenders.slice(0, at)])
    out[c] = await timed(page, pid, callOf(c, s, chunk), servicePid);
  for (const c of contenders) {
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
          // The kit's read limit (half the stall limit): a Blob stream read in this worker was seen never to settle
          // with both cores busy (2026-11-29), and the kit's tracker gives such a read up and opens it again.
          const tracker = await Md5Tracker.open('auto', undefined, 0, 15000);
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

/** One contender's figures in a round's log line: time, Chromium's CPU (the network service's), the service's CPU. */
function roundLine(t: Timed): string {
  const sent = t.sentMs; // null from the page when the upload's end was not heard
  const tail =
    typeof sent === 'number' && Number.isFinite(sent) ? `, after the last byte ${round(t.ms - sent, 0)} ms` : '';
  // The longest wait between progress events, and when it began: where a bar stands still (a kit upload only).
  const points = t.progress === undefined ? [] : [0, ...t.progress, t.ms];
  const gaps = points.slice(1).map((p, i): [number, number] => [p - points[i], points[i]]);
  const [gap, from] = gaps.reduce((a, b) => (b[0] > a[0] ? b : a), [0, 0]);
  const still = gaps.length > 0 ? `, progress still ${round(gap, 0)} ms from ${round(from, 0)} ms` : '';
  return `${round(t.ms / 1000)} s ${round(t.cpu)} cpu-s (network ${round(t.parts.network)}, service ${round(t.serviceCpu)}, idle ${round(t.idle)}${tail}${still})`;
}

/** Runs the uploader benchmark. */
export default async function uploaderBench(): Promise<BenchResult> {
  const quick = process.env.BENCH_QUICK === '1';
  const sizes = (process.env.BENCH_SIZES_MB ?? (quick ? '256' : '256,1024')).split(',').map(Number);
  const runs = Number(process.env.BENCH_RUNS ?? 3);
  const reloadMiB = Number(process.env.BENCH_RELOAD_MB ?? (quick ? 64 : 128));
  const contenders = chosenContenders();
  // A study of a few contenders alternates their order from round to round; the default round keeps its order.
  const rotating = contenders !== DEFAULT_CONTENDERS;
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
    await page.evaluate(RAW_PUT_PAGE_SETUP);
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
      const rounds: Round[] = [];
      for (let r = 0; r < runs; r++) {
        await page.evaluate('bench.sampleHeap()');
        const last = await oneRound(page, pid, service.url, service.pid, contenders, rotating ? r : 0);
        rounds.push(last);
        heap = Math.max(heap, (await page.evaluate('bench.stopHeap()')) as number);
        console.error(
          `uploader: ${sizeMiB} MiB round ${r + 1}: ${contenders.map((c) => `${c} ${roundLine(last[c])}`).join(', ')}`,
        );
        for (const c of ['kitWhole', 'kitChunks', 'kitWholeNoVerify', 'kitChunksNoVerify'])
          longTasks.push(...(last[c]?.longTasks ?? []));
      }
      sizeFigures(rounds, sizeMiB, CHUNK_MIB, metrics, targets);
    }
    const longest = round(Math.max(0, ...longTasks), 1);
    const heapMiB = round(heap, 1);
    metrics.longTasksOver50ms = longTasks.filter((d) => d > 50).length;
    targets.longestMainThreadTaskMs = { value: longest, target: '≤ 50', pass: longest <= 50 };
    targets.heapGrowthMiB = { value: heapMiB, target: '< 64', pass: heapMiB < 64 };
    // `BENCH_RELOAD_MB=0`: no reload phase (a study of a few contenders needs none).
    if (reloadMiB > 0) {
      console.error(`uploader: reload at 40 % of ${reloadMiB} MiB…`);
      const reload = await resentAfterReload(page, service.url, pages.url, reloadMiB);
      console.error(`uploader: re-sent ${reload.resent} bytes, in flight ${reload.inFlight}`);
      const resentLimit = 256 * 1024 + reload.inFlight;
      Object.assign(metrics, {
        reloadSizeMiB: reloadMiB,
        reloadCutAtBytes: reload.cutAt,
        resentBytes: reload.resent,
        inFlightBytes: reload.inFlight,
      });
      targets.resentAfterReloadBytes = {
        value: reload.resent,
        target: `≤ ${resentLimit}`,
        pass: reload.resent <= resentLimit,
      };
    }
    return { name: 'uploader', metrics, targets };
  } finally {
    await browser.close();
    await pages.stop();
    await service.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}
