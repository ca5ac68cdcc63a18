/**
 * A resumable upload of BENCH_SIZE_MB (default 1024 MiB) over loopback in one whole-file PUT, streamed from a
 * generator (never held in memory), against writing the same bytes to a file on the same disk in the same run.
 * Targets: throughput ratio ≥ 0.8 and the service's peak RSS (VmHWM) < 150 MiB.
 */
import { createHash } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { startService } from '../test/server/helpers/service.ts';
import type { BenchResult } from './types.ts';

const MiB = 1024 * 1024;

/** `total` bytes in 1 MiB chunks of a fixed pseudo-random pattern (cheap to produce, not compressible). */
function source(total: number): Readable {
  const pattern = Buffer.alloc(MiB);
  let x = 0x12345678;
  for (let i = 0; i < MiB; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    pattern[i] = x >>> 24;
  }
  let sent = 0;
  return new Readable({
    highWaterMark: 4 * MiB,
    read() {
      if (sent >= total) return void this.push(null);
      const n = Math.min(MiB, total - sent);
      sent += n;
      // A fresh copy per chunk: consumers may hold chunks while writing.
      this.push(Buffer.from(pattern.subarray(0, n)));
    },
  });
}

async function md5Of(total: number): Promise<string> {
  const h = createHash('md5');
  for await (const c of source(total)) h.update(c as Buffer);
  return h.digest('hex');
}

async function writeToDisk(path: string, total: number): Promise<number> {
  const t0 = performance.now();
  await pipeline(source(total), createWriteStream(path));
  const ms = performance.now() - t0;
  rmSync(path, { force: true });
  return ms / 1000;
}

function put(url: string, total: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'PUT', headers: { 'Content-Length': String(total) } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    source(total).pipe(req);
  });
}

function vmHwmMiB(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round((Number(m[1]) / 1024) * 10) / 10 : NaN;
}

/** Runs the upload benchmark. */
export default async function uploadBench(): Promise<BenchResult> {
  const sizeMb = Number(process.env.BENCH_SIZE_MB ?? 1024);
  const total = Math.round(sizeMb * MiB);
  const expectedMd5 = await md5Of(total);
  const scratch = mkdtempSync(join(tmpdir(), 'store-bench-'));
  const svc = await startService({ dataDir: join(scratch, 'data') });
  try {
    const disk1 = await writeToDisk(join(scratch, 'baseline.bin'), total);
    const start = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable&fields=id,size,md5Checksum', {
      body: { name: 'bench.bin' },
      headers: { 'X-Upload-Content-Length': String(total) },
    });
    if (start.status !== 200) throw new Error(`session start failed: ${start.status} ${start.text}`);
    const t0 = performance.now();
    const done = await put(start.headers.location as string, total);
    const uploadS = (performance.now() - t0) / 1000;
    if (done.status !== 200) throw new Error(`upload failed: ${done.status} ${done.body}`);
    const file = JSON.parse(done.body) as { size: string; md5Checksum: string };
    if (file.size !== String(total) || file.md5Checksum !== expectedMd5)
      throw new Error(`stored file differs: ${done.body}`);
    const peak = vmHwmMiB(svc.pid);
    const disk2 = await writeToDisk(join(scratch, 'baseline.bin'), total);
    const diskS = (disk1 + disk2) / 2;
    const ratio = Math.round((diskS / uploadS) * 100) / 100;
    const mibps = (s: number) => Math.round((total / MiB / s) * 10) / 10;
    console.error(
      `upload: ${sizeMb} MiB in ${uploadS.toFixed(2)} s; disk ${diskS.toFixed(2)} s; ratio ${ratio}; peak RSS ${peak} MiB`,
    );
    return {
      name: 'upload',
      metrics: {
        sizeMiB: sizeMb,
        uploadSeconds: Math.round(uploadS * 1000) / 1000,
        uploadMiBps: mibps(uploadS),
        diskSeconds: Math.round(diskS * 1000) / 1000,
        diskMiBps: mibps(diskS),
        serviceVmHWMMiB: peak,
      },
      targets: {
        throughputRatio: { value: ratio, target: '≥ 0.8', pass: ratio >= 0.8 },
        servicePeakRssMiB: { value: peak, target: '< 150', pass: peak < 150 },
      },
    };
  } finally {
    await svc.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}
