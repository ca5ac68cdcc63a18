/**
 * The kit's hash path against the machine's MD5 (issue 32), in one run: `openssl speed -evp md5` on one core and
 * Node's `crypto` here, then in headless Chromium, in a worker, the kit's own tracker (`engine/hashing/md5-tracker.ts`,
 * bundled as the hash worker bundles it) from a Blob to its digest, beside its parts alone: hash-wasm over one buffer
 * already in memory (the ceiling of MD5 in WebAssembly in this V8) and the Blob's read without hashing. Blobs: a file
 * from disk, chosen through a file input, and a Blob of 1 MiB references in memory. `BENCH_HASH_MB` (default 256)
 * sizes them, `BENCH_HASH_ROUNDS` (default 3) alternates the variants, figures are medians. The worker's CPU time is
 * measured from /proc (the worker's thread, named DedicatedWorker): `openssl speed` too counts CPU time, so the ratio
 * holds on a loaded machine; all of Chromium's CPU per GiB (the browser's side of the reads too) is reported beside it. Launches Chromium:
 * run under `flock /tmp/chromium.lock`.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import type { BenchResult } from './types.ts';

const MiB = 1024 * 1024;
const ROOT = resolve(import.meta.dirname, '..');

/** The worker: each variant reads/hashes `blob` and answers { ms, md5 }. */
const WORKER = `
import { Md5Tracker } from './src/uploader/engine/hashing/md5-tracker.ts';
import { createMD5 } from 'hash-wasm';
const variants = {
  async kitTracker(blob) {
    const t = await Md5Tracker.open('auto');
    await t.hashTo(blob, blob.size);
    const md5 = await t.digest(blob, blob.size);
    t.close();
    return md5;
  },
  async wasmOverBuffer(blob) {
    const buf = new Uint8Array(4 * 1024 * 1024);
    crypto.getRandomValues(buf.subarray(0, 65536));
    const h = await createMD5();
    h.init();
    for (let at = 0; at < blob.size; at += buf.length) h.update(at + buf.length <= blob.size ? buf : buf.subarray(0, blob.size - at));
    return h.digest('hex') && '';
  },
  async sliceArrayBuffer8(blob) {
    const h = await createMD5();
    h.init();
    const step = 8 * 1024 * 1024;
    for (let at = 0; at < blob.size; at += step) h.update(new Uint8Array(await blob.slice(at, at + step).arrayBuffer()));
    return h.digest('hex');
  },
  async readerSync8(blob) {
    const h = await createMD5();
    h.init();
    const step = 8 * 1024 * 1024;
    const reader = new FileReaderSync();
    for (let at = 0; at < blob.size; at += step) h.update(new Uint8Array(reader.readAsArrayBuffer(blob.slice(at, at + step))));
    return h.digest('hex');
  },
  async streamWasm(blob) {
    const h = await createMD5();
    h.init();
    const r = blob.stream().getReader();
    for (;;) { const x = await r.read(); if (x.done) return h.digest('hex'); h.update(x.value); }
  },
  async byobWasm(blob) {
    const h = await createMD5();
    h.init();
    const r = blob.stream().getReader({ mode: 'byob' });
    let buf = new ArrayBuffer(1024 * 1024);
    for (;;) {
      const x = await r.read(new Uint8Array(buf));
      if (x.done) return h.digest('hex');
      h.update(x.value);
      buf = x.value.buffer;
    }
  },
  async streamReadOnly(blob) {
    const r = blob.stream().getReader();
    for (;;) { const x = await r.read(); if (x.done) return ''; }
  },
};
onmessage = async ({ data: { variant, blob } }) => {
  try {
    const t0 = performance.now();
    const md5 = await variants[variant](blob);
    postMessage({ ms: performance.now() - t0, md5 });
  } catch (e) { postMessage({ error: String(e && e.stack || e) }); }
};
`;

function opensslMd5MBps(): number {
  // One core, 16 KiB blocks (its largest default size), 2 s.
  const out = execFileSync('openssl', ['speed', '-evp', 'md5', '-seconds', '2', '-bytes', '16384'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const line = out.split('\n').find((l) => /^md5\s/.test(l.trim()));
  const k = Number(line?.trim().split(/\s+/).pop()?.replace(/k$/, ''));
  return (k * 1000) / 1e6;
}

function nodeMd5MBps(): number {
  const buf = Buffer.alloc(4 * MiB, 7);
  const t0 = performance.now();
  let n = 0;
  const h = createHash('md5');
  while (performance.now() - t0 < 2000) {
    h.update(buf);
    n += buf.length;
  }
  h.digest();
  return n / 1e6 / ((performance.now() - t0) / 1000);
}

/** CPU seconds of Chromium's processes under `rootPid` so far: all of them, and the threads named like a worker's. */
export function chromiumCpu(rootPid: number): { all: number; workers: number } {
  const parent = new Map<number, number>();
  const chrome = new Set<number>();
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      parent.set(Number(e), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      if (/^\d+ \(chrom/.test(stat)) chrome.add(Number(e));
    } catch {
      // gone
    }
  }
  const inTree = (pid: number) => {
    for (let p = pid, i = 0; p > 1 && i < 50; p = parent.get(p) ?? 0, i++) if (p === rootPid) return true;
    return false;
  };
  let all = 0;
  let workers = 0;
  for (const pid of chrome) {
    if (!inTree(pid)) continue;
    try {
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const t = (Number(f[11]) + Number(f[12])) / 100;
        all += t;
        if (/Worker/i.test(comm)) workers += t;
      }
    } catch {
      // gone
    }
  }
  return { all, workers };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

export default async function hashBench(): Promise<BenchResult> {
  const sizeMiB = Number(process.env.BENCH_HASH_MB ?? 256);
  const rounds = Number(process.env.BENCH_HASH_ROUNDS ?? 3);
  const loadBefore = loadavg()[0];
  const scratch = mkdtempSync(join(tmpdir(), 'store-bench-hash-'));
  const { build } = await import('esbuild');
  const bundle = await build({
    stdin: { contents: WORKER, resolveDir: ROOT, loader: 'ts', sourcefile: 'hash-bench-worker.ts' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'error',
  });
  const workerJs = bundle.outputFiles[0].text;
  const html = `<!doctype html><input type="file" id="f"><script type="module">
    const w = new Worker('/worker.js', { type: 'module' });
    const part = new Uint8Array(1048576); for (let i = 0; i < part.length; i++) part[i] = (i * 2654435761) >>> 24;
    window.memoryBlob = new Blob(new Array(${sizeMiB}).fill(new Blob([part])));
    window.run = (variant, source) => new Promise((res) => {
      w.onmessage = (e) => res(e.data);
      w.postMessage({ variant, blob: source === 'disk' ? document.getElementById('f').files[0] : window.memoryBlob });
    });
  </script>`;
  const server = createServer((req, res) => {
    if (req.url === '/worker.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(workerJs);
    else res.writeHead(200, { 'content-type': 'text/html' }).end(html);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { CHROMIUM_PATH, CHROMIUM_ARGS } = (await import(
    pathToFileURL(join(ROOT, 'test/browser/chromium.js')).href
  )) as {
    CHROMIUM_PATH: string;
    CHROMIUM_ARGS: string[];
  };
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const metrics: Record<string, number | string> = { sizeMiB, rounds };
  const targets: Record<string, BenchResult['targets'][string]> = {};
  try {
    const path = join(scratch, 'hash.bin');
    const bytes = Buffer.alloc(sizeMiB * MiB);
    for (let i = 0; i < MiB; i++) bytes[i] = (Math.imul(i, 2654435761) >>> 24) & 0xff;
    for (let m = 1; m < sizeMiB; m++) bytes.copy(bytes, m * MiB, 0, MiB);
    writeFileSync(path, bytes);
    const md5 = createHash('md5').update(bytes).digest('hex');
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await page.setInputFiles('#f', path);
    const native: number[] = [];
    const node: number[] = [];
    const runs: Record<string, number[]> = {};
    const variants = (process.env.BENCH_HASH_VARIANTS ?? 'kitTracker,wasmOverBuffer,streamReadOnly').split(',');
    for (let r = 0; r < rounds; r++) {
      native.push(opensslMd5MBps());
      node.push(nodeMd5MBps());
      for (const source of ['disk', 'memory'])
        for (const v of variants) {
          if (v === 'wasmOverBuffer' && source === 'memory') continue;
          const c0 = chromiumCpu(process.pid);
          const out = (await page.evaluate(`run(${JSON.stringify(v)}, ${JSON.stringify(source)})`)) as {
            ms: number;
            md5: string;
            error?: string;
          };
          if (out.error) throw new Error(out.error);
          if (out.md5 && out.md5 !== md5) throw new Error(`${v} ${source}: md5 ${out.md5} ≠ ${md5}`);
          const c1 = chromiumCpu(process.pid);
          const mbps = (sizeMiB * MiB) / 1e6 / (c1.workers - c0.workers);
          (runs[`${v}_${source}`] ??= []).push(mbps);
          (runs[`${v}_${source}_chromiumCpuPerGiB`] ??= []).push(((c1.all - c0.all) * 1024) / sizeMiB);
          console.error(
            `hash: round ${r + 1} ${v} ${source}: ${round(mbps, 0)} MB/s of the worker's CPU (wall ${round((sizeMiB * MiB) / 1e3 / out.ms, 0)}), all Chromium ${round(((c1.all - c0.all) * 1024) / sizeMiB)} CPU-s/GiB`,
          );
        }
      console.error(
        `hash: round ${r + 1} openssl ${round(native.at(-1)!, 0)} MB/s, node ${round(node.at(-1)!, 0)} MB/s`,
      );
    }
    const opensslMBps = median(native);
    metrics.openssl_md5_MBps = round(opensslMBps, 0);
    metrics.node_md5_MBps = round(median(node), 0);
    for (const [k, xs] of Object.entries(runs))
      metrics[k.endsWith('PerGiB') ? k : `${k}_MBps`] = round(median(xs), k.endsWith('PerGiB') ? 2 : 0);
    // Per round, against that round's openssl figure (same load).
    const ratio = (k: string) => median(runs[k].map((x, i) => x / native[i]));
    metrics.wasmOverBuffer_vs_openssl = round(ratio('wasmOverBuffer_disk'));
    for (const source of ['disk', 'memory']) {
      const value = round(ratio(`kitTracker_${source}`));
      targets[`kitHashPath_${source}_vs_openssl`] = { value, target: '≥ 0.8', pass: value >= 0.8 };
      metrics[`kitHashPath_${source}_cpu_s_perGiB`] = round(1073.741824 / median(runs[`kitTracker_${source}`]));
    }
    metrics.openssl_cpu_s_perGiB = round(1073.741824 / opensslMBps);
    metrics.loadavgBefore = loadBefore;
    metrics.loadavgAfter = loadavg()[0];
    return { name: 'hash', metrics, targets };
  } finally {
    await browser.close();
    server.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}
