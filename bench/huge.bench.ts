/**
 * Huge files in flat memory (issue 32): files of BENCH_HUGE_GB GiB (default "1,2,4,8") on disk — sparse, so they cost
 * no disk space and read at memory speed, which leaves the kit's own CPU and memory in the figures — chosen through a
 * file input and uploaded by the kit with its defaults, whole (one PUT) and in 8 MiB chunks, each into a fresh service
 * whose data is deleted after it. Per upload: time (linear in size?), the first progress event after `add`, the growth
 * of all Chromium processes' resident memory over the upload (sampled every 200 ms from /proc), the service's peak
 * resident memory, and the stored MD5 against the file's. Launches Chromium: run under `flock /tmp/chromium.lock`;
 * `BENCH_HUGE_MODES` (default "whole,chunks") and small sizes keep a partial run short.
 */
import { createHash } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, ftruncateSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { startUploadPage } from '../test/client/helpers/upload-page.ts';
import { startService } from '../test/server/helpers/service.ts';
import type { BenchResult } from './types.ts';

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;
const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

/** Resident bytes of `pid`, or of every Chromium process under `root` when `tree` is set. */
function rssBytes(pid: number, tree = false): number {
  const rss = (p: number) => {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
      return m ? Number(m[1]) * 1024 : 0;
    } catch {
      return 0;
    }
  };
  if (!tree) return rss(pid);
  const parent = new Map<number, number>();
  const chrome: number[] = [];
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      parent.set(Number(e), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      if (/^\d+ \(chrom/.test(stat)) chrome.push(Number(e));
    } catch {
      // gone
    }
  }
  const inTree = (p: number) => {
    for (let q = p, i = 0; q > 1 && i < 50; q = parent.get(q) ?? 0, i++) if (q === pid) return true;
    return false;
  };
  return chrome.filter(inTree).reduce((sum, p) => sum + rss(p), 0);
}

/** MD5 of n GiB of zero bytes, for each n asked (one pass over the largest). */
function zeroMd5s(sizes: number[]): Map<number, string> {
  const out = new Map<number, string>();
  const zeros = Buffer.alloc(64 * MiB);
  const hash = createHash('md5');
  const max = Math.max(...sizes);
  for (let at = 0; at < max * GiB;) {
    hash.update(zeros);
    at += zeros.length;
    if (sizes.includes(at / GiB)) out.set(at / GiB, hash.copy().digest('hex'));
  }
  return out;
}

const KIT = `async (options) => {
  const uploader = window.kit.module.createUploader({ baseUrl: window.hugeService, getAccessToken: () => 'dev-token-alice', ...options });
  try {
    await uploader.interrupted();
    let first;
    const t0 = performance.now();
    uploader.addEventListener('progress', (e) => { if (first === undefined && e.detail.bytesSent > 0) first = performance.now() - t0; });
    const file = await uploader.add(document.getElementById('file').files[0]).done;
    return { ms: performance.now() - t0, first, file };
  } finally {
    uploader.destroy();
  }
}`;

export default async function hugeBench(): Promise<BenchResult> {
  const sizes = (process.env.BENCH_HUGE_GB ?? '1,2,4,8').split(',').map(Number);
  const modes = (process.env.BENCH_HUGE_MODES ?? 'whole,chunks').split(',');
  const loadBefore = loadavg();
  const scratch = mkdtempSync(join(tmpdir(), 'store-bench-huge-'));
  const pages = await startUploadPage();
  const { CHROMIUM_PATH, CHROMIUM_ARGS } = (await import(
    pathToFileURL(resolve(import.meta.dirname, '../test/browser/chromium.js')).href
  )) as { CHROMIUM_PATH: string; CHROMIUM_ARGS: string[] };
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const metrics: Record<string, number | string> = { sizesGiB: sizes.join(','), file: 'sparse file on disk' };
  const targets: Record<string, BenchResult['targets'][string]> = {};
  console.error('huge: MD5 of the files…');
  const md5s = zeroMd5s(sizes);
  try {
    const page = await browser.newPage();
    for (const gib of sizes) {
      const path = join(scratch, `huge-${gib}g.bin`);
      const fd = openSync(path, 'w');
      ftruncateSync(fd, gib * GiB);
      closeSync(fd);
      for (const mode of modes) {
        const service = await startService({ dataDir: join(scratch, `data-${gib}-${mode}`) });
        try {
          await page.goto(pages.url(service.url, { persist: false }));
          await page.waitForFunction(() => 'kit' in globalThis);
          await page.evaluate(`window.hugeService = ${JSON.stringify(service.url)}`);
          // The page's own input is watched by its uploader: pick the file through a second input of ours.
          await page.evaluate(
            `document.getElementById('file').replaceWith(Object.assign(document.createElement('input'), { type: 'file', id: 'file' }))`,
          );
          await page.setInputFiles('#file', path);
          const browserBefore = rssBytes(process.pid, true);
          let browserPeak = browserBefore;
          let servicePeak = rssBytes(service.pid);
          const sampler = setInterval(() => {
            browserPeak = Math.max(browserPeak, rssBytes(process.pid, true));
            servicePeak = Math.max(servicePeak, rssBytes(service.pid));
          }, 200);
          const options = { resumableThreshold: 0, ...(mode === 'chunks' && { chunkSize: 8 * MiB }) };
          const out = (await page.evaluate(`(${KIT})(${JSON.stringify(options)})`)) as {
            ms: number;
            first?: number;
            file: { size: string; md5Checksum: string };
          };
          clearInterval(sampler);
          if (out.file.size !== String(gib * GiB) || out.file.md5Checksum !== md5s.get(gib))
            throw new Error(`${gib} GiB ${mode}: stored ${JSON.stringify(out.file)}`);
          const tag = `${gib}GiB_${mode}`;
          metrics[`${tag}_s`] = round(out.ms / 1000);
          metrics[`${tag}_MBps`] = round((gib * GiB) / 1e3 / out.ms, 0);
          metrics[`${tag}_firstProgress_ms`] = round(out.first ?? NaN, 0);
          metrics[`${tag}_browserGrowth_MiB`] = round((browserPeak - browserBefore) / MiB, 0);
          metrics[`${tag}_servicePeak_MiB`] = round(servicePeak / MiB, 0);
          console.error(
            `huge: ${tag}: ${JSON.stringify(Object.fromEntries(Object.entries(metrics).filter(([k]) => k.startsWith(tag))))}`,
          );
          if (gib === Math.max(...sizes)) {
            const g = (browserPeak - browserBefore) / MiB;
            const s = servicePeak / MiB;
            const f = out.first ?? Infinity;
            targets[`${tag}_browserGrowth_MiB`] = { value: round(g, 0), target: '< 200', pass: g < 200 };
            targets[`${tag}_servicePeak_MiB`] = { value: round(s, 0), target: '< 200', pass: s < 200 };
            targets[`${tag}_firstProgress_ms`] = { value: round(f, 0), target: '≤ 1000', pass: f <= 1000 };
          }
        } finally {
          await service.stop();
          rmSync(join(scratch, `data-${gib}-${mode}`), { recursive: true, force: true });
        }
      }
      rmSync(path, { force: true });
    }
    // Linear in size: seconds per GiB at the largest size against the smallest.
    for (const mode of modes) {
      const perGiB = (g: number) => Number(metrics[`${g}GiB_${mode}_s`]) / g;
      metrics[`${mode}_sPerGiB_largest_vs_smallest`] = round(perGiB(Math.max(...sizes)) / perGiB(Math.min(...sizes)));
    }
    metrics.loadavgBefore = loadBefore.map((x) => round(x)).join(' / ');
    metrics.loadavgAfter = loadavg()
      .map((x) => round(x))
      .join(' / ');
    return { name: 'huge', metrics, targets };
  } finally {
    await browser.close();
    await pages.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}
