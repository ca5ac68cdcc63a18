/**
 * The service over PostgreSQL + an S3 object store (a throwaway Ceph RGW on bluestore), in one run:
 * - BENCH_CLUSTER_MB (default 1024 MiB) through one node in one whole-file resumable PUT ÷ the same bytes put straight
 *   into the bucket by this machine (a multipart upload of 16 MiB parts, 4 in flight) — goal ≤ 1.3;
 * - three clients through three nodes ÷ three clients through one node (aggregate time of a third of the bytes each);
 * - each node's peak RSS during the big upload (< 150 MiB);
 * - metadata round trips per 256 KiB chunk and per status query (`databaseStatements` of `/__admin/memory`).
 * The nodes run from the compiled service (`npm run prepare` builds it first when it is older than its sources), as a
 * deployment runs them: through tsx a node is about 30 MiB bigger.
 * On this 2-core machine the nodes, the client, PostgreSQL and every Ceph daemon share two cores: the three-node
 * figure measures the floor of what one machine allows, not what three machines would do.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { request } from 'node:http';
import { Readable } from 'node:stream';
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { startObjectStore, startPostgres } from '../test/cluster/servers.ts';
import { startService, type ServiceHandle } from '../test/server/helpers/service.ts';
import { runsCompiled } from '../bin/run.js';
import type { BenchResult } from './types.ts';

const MiB = 1024 * 1024;
const CHUNK = 256 * 1024;

/** `total` bytes of a fixed pseudo-random pattern, in 1 MiB chunks (never held whole). */
function pattern(): Buffer {
  const b = Buffer.alloc(MiB);
  let x = 0x2545f491;
  for (let i = 0; i < MiB; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    b[i] = x >>> 24;
  }
  return b;
}
const PATTERN = pattern();
function source(total: number): Readable {
  let sent = 0;
  return new Readable({
    highWaterMark: 4 * MiB,
    read() {
      if (sent >= total) return void this.push(null);
      const n = Math.min(MiB, total - sent);
      sent += n;
      this.push(Buffer.from(PATTERN.subarray(0, n)));
    },
  });
}

/** User + system CPU seconds a process has used (/proc/<pid>/stat, fields 14 and 15, in clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Peak RSS (VmHWM) of a process, in MiB. */
function peakRss(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** One request; resolves with its status, headers and body. */
function send(url: string, method: string, headers: Record<string, string>, body?: Readable | Buffer) {
  return new Promise<{ status: number; headers: Record<string, unknown>; text: string }>((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    if (body instanceof Readable) body.pipe(req);
    else req.end(body);
  });
}

async function session(base: string, total: number): Promise<string> {
  const r = await send(
    `${base}/upload/store/v3/files?uploadType=resumable`,
    'POST',
    {
      Authorization: 'Bearer dev-token-alice',
      'Content-Type': 'application/json',
      'X-Upload-Content-Length': String(total),
    },
    Buffer.from('{"name":"bench.bin"}'),
  );
  if (r.status !== 200) throw new Error(`session start: ${r.status} ${r.text}`);
  return r.headers.location as string;
}

/** Seconds to upload `total` bytes in one whole-file PUT through `base`. */
async function uploadWhole(base: string, total: number): Promise<number> {
  const uri = await session(base, total);
  const t0 = performance.now();
  const r = await send(uri, 'PUT', { 'Content-Length': String(total) }, source(total));
  if (r.status !== 200 && r.status !== 201) throw new Error(`upload: ${r.status} ${r.text}`);
  return (performance.now() - t0) / 1000;
}

/** Seconds to put `total` bytes straight into the bucket: multipart, 16 MiB parts, 4 in flight. */
async function uploadDirect(client: S3Client, bucket: string, total: number): Promise<number> {
  const t0 = performance.now();
  const key = `direct/${Date.now()}`;
  const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }));
  const partSize = 16 * MiB;
  const parts: { PartNumber: number; ETag: string }[] = [];
  let next = 0;
  const worker = async () => {
    for (let n = next++; n * partSize < total; n = next++) {
      const size = Math.min(partSize, total - n * partSize);
      const body = Buffer.alloc(size);
      for (let o = 0; o < size; o += MiB) PATTERN.copy(body, o, 0, Math.min(MiB, size - o));
      const r = await client.send(
        new UploadPartCommand({ Bucket: bucket, Key: key, UploadId, PartNumber: n + 1, Body: body }),
      );
      parts.push({ PartNumber: n + 1, ETag: r.ETag ?? '' });
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  parts.sort((a, b) => a.PartNumber - b.PartNumber);
  await client.send(
    new CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId, MultipartUpload: { Parts: parts } }),
  );
  return (performance.now() - t0) / 1000;
}

async function statements(node: ServiceHandle): Promise<number> {
  const r = await node.api('GET', '/__admin/memory', { token: null });
  return r.json<{ databaseStatements: number }>().databaseStatements;
}

export default async function (): Promise<BenchResult> {
  const total = Number(process.env.BENCH_CLUSTER_MB ?? '1024') * MiB;
  if (!runsCompiled('server/cli.ts')) {
    console.error('bench: cluster: building the service (npm run prepare)');
    execFileSync('npm', ['run', '--silent', 'prepare'], { stdio: 'inherit' });
  }
  if (!runsCompiled('server/cli.ts')) throw new Error('the compiled service is still older than its sources');
  const [pg, s3] = await Promise.all([startPostgres(), startObjectStore({ objectStore: 'bluestore' })]);
  Object.assign(process.env, s3.env);
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  // BENCH_CLUSTER_PROFILE=DIR: every node writes a V8 CPU profile into DIR when it stops (read it with
  // `node bench/profile-self.mjs DIR/<file>.cpuprofile`); the node that takes the big upload is the largest.
  const profile = process.env.BENCH_CLUSTER_PROFILE;
  if (profile) mkdirSync(profile, { recursive: true });
  const cluster = await startService({
    cluster: { database: pg.url, content: `s3://${s3.bucket}/bench`, nodes: 3 },
    ...(profile ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profile}`] } : {}),
  });
  try {
    const nodes = cluster.nodes ?? [];
    const one = nodes[0] as ServiceHandle;
    console.error(`bench: cluster: ${total / MiB} MiB straight into the bucket, then through one node`);
    const direct = await uploadDirect(client, s3.bucket, total);
    const load = [loadavg()[0] as number];
    const cpu0 = cpuSeconds(one.pid);
    const throughOne = await uploadWhole(one.url, total);
    // The load-robust figure: what the node spent per GiB, whoever else wanted the cores meanwhile.
    const nodeCpuPerGiB = ((cpuSeconds(one.pid) - cpu0) * 1024 * MiB) / total;
    load.push(loadavg()[0] as number);
    const rss = nodes.map((n) => peakRss(n.pid));

    console.error('bench: cluster: three clients through one node, then through three');
    const third = Math.floor(total / 3 / CHUNK) * CHUNK;
    let t0 = performance.now();
    await Promise.all([0, 1, 2].map(() => uploadWhole(one.url, third)));
    const threeOnOne = (performance.now() - t0) / 1000;
    t0 = performance.now();
    await Promise.all(nodes.map((n) => uploadWhole(n.url, third)));
    const threeOnThree = (performance.now() - t0) / 1000;

    console.error('bench: cluster: round trips per chunk and per status query');
    const chunks = 32;
    const uri = await session(one.url, chunks * CHUNK);
    const before = await statements(one);
    for (let i = 0; i < chunks - 1; i++) {
      const r = await send(
        uri,
        'PUT',
        { 'Content-Range': `bytes ${i * CHUNK}-${(i + 1) * CHUNK - 1}/${chunks * CHUNK}` },
        Buffer.from(PATTERN.subarray(0, CHUNK)),
      );
      if (r.status !== 308) throw new Error(`chunk: ${r.status} ${r.text}`);
    }
    const afterChunks = await statements(one);
    const queries = 20;
    for (let i = 0; i < queries; i++) await send(uri, 'PUT', { 'Content-Range': `bytes */${chunks * CHUNK}` });
    const afterQueries = await statements(one);
    // Each /__admin/memory read is one request with its own settings check: left out.
    const perChunk = (afterChunks - before - 1) / (chunks - 1);
    const perQuery = (afterQueries - afterChunks - 1) / queries;

    const ratio = throughOne / direct;
    const md5 = createHash('md5').update(PATTERN).digest('hex').slice(0, 8);
    return {
      name: 'cluster',
      metrics: {
        size_MiB: total / MiB,
        direct_s: +direct.toFixed(2),
        through_one_node_s: +throughOne.toFixed(2),
        node_cpu_s_per_GiB: +nodeCpuPerGiB.toFixed(2),
        load_average: load.map((l) => l.toFixed(1)).join(' → '),
        three_clients_one_node_s: +threeOnOne.toFixed(2),
        three_clients_three_nodes_s: +threeOnThree.toFixed(2),
        node_peak_rss_MiB: rss.map((r) => r.toFixed(0)).join(' / '),
        statements_per_chunk: +perChunk.toFixed(1),
        statements_per_status_query: +perQuery.toFixed(1),
        pattern_md5: md5,
      },
      targets: {
        one_node_vs_direct: { value: +ratio.toFixed(3), target: '≤ 1.3', pass: ratio <= 1.3 },
        three_nodes_vs_one: {
          value: +(threeOnThree / threeOnOne).toFixed(3),
          target: 'report (2 cores: the floor)',
          pass: true,
        },
        node_peak_rss_MiB: { value: Math.max(...rss), target: '< 150', pass: Math.max(...rss) < 150 },
      },
    };
  } finally {
    client.destroy();
    await cluster.stop().catch((e: unknown) => console.error(e));
    await Promise.allSettled([pg.dispose(), s3.dispose()]);
  }
}
