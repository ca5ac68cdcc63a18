/**
 * `npm run soak`: a chaos soak of the real service. N concurrent clients, for a bounded time, upload (simple,
 * multipart in CRLF and LF framing, resumable in chunks), drop connections mid-body, stall chunk PUTs and resume
 * through a status query, and race deletes and revocations against their own uploads. Afterwards: every completed
 * file is byte-identical, nothing is duplicated, no blob, temp or part file is orphaned, the process never
 * restarted, and its peak RSS is reported. Prints a JSON result (and writes `bench/results/soak.json`).
 *
 * Environment: SOAK_SECONDS (30), SOAK_CLIENTS (8), SOAK_SEED (random; printed — the same seed replays the same
 * choices, though timing still varies), SOAK_MAX_KIB (largest upload, 2048).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openRaw, requestHead } from '../test/server/helpers/raw-http.ts';
import { seededRandom } from '../test/server/helpers/seeded-random.ts';
import { startService, type ServiceHandle } from '../test/server/helpers/service.ts';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 30);
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 8);
const SEED = Number(process.env.SOAK_SEED ?? Date.now() % 2 ** 31);
const MAX_BYTES = Number(process.env.SOAK_MAX_KIB ?? 2048) * 1024;
const BLOCK = 256 * 1024;
console.error(`soak: seed ${SEED} (SOAK_SEED=${SEED} replays the choices), ${CLIENTS} clients, ${SECONDS} s`);

function bytesOf(rand: () => number, size: number): Buffer {
  const b = Buffer.allocUnsafe(size);
  for (let i = 0; i + 4 <= size; i += 4) b.writeUInt32LE((rand() * 2 ** 32) >>> 0, i);
  // Tail bytes (size not a multiple of 4), and endings that trip framing: CR, LF, dashes.
  for (let i = size - (size % 4); i < size; i++) b[i] = (rand() * 256) | 0;
  if (size > 0 && rand() < 0.3) b[size - 1] = [13, 10, 45][(rand() * 3) | 0];
  return b;
}

const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');

/** What a file must hold at the end: exactly `md5`, one of several (a race), or nothing (deleted). */
type Expectation = { id: string; md5s: string[] } | { id: string; gone: true };

/**
 * A racing update answered early (its file deleted or its writer revoked before the body was read) may see the
 * service close the connection while it is still sending: the refusal itself, not a fault.
 */
async function refusedOrAnswered(
  call: Promise<{ status: number; text: string }>,
): Promise<{ status: number; text: string }> {
  try {
    return await call;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ECONNRESET' || code === 'EPIPE') return { status: 0, text: `connection closed early (${code})` };
    throw e;
  }
}

const counts: Record<string, number> = {};
const tally = (k: string) => (counts[k] = (counts[k] ?? 0) + 1);

async function simple(svc: ServiceHandle, content: Buffer): Promise<string> {
  const r = await svc.api('POST', '/upload/store/v3/files?uploadType=media&fields=id,md5Checksum', {
    body: content,
    headers: { 'Content-Type': 'application/octet-stream' },
  });
  if (r.status !== 200 || r.json().md5Checksum !== md5(content))
    throw new Error(`simple upload: ${r.status} ${r.text}`);
  return r.json().id;
}

async function multipart(svc: ServiceHandle, content: Buffer, nl: string): Promise<string> {
  const body = Buffer.concat([
    Buffer.from(
      `--soak${nl}Content-Type: application/json; charset=UTF-8${nl}${nl}{"name":"mp"}${nl}--soak${nl}Content-Type: application/octet-stream${nl}${nl}`,
    ),
    content,
    Buffer.from(`${nl}--soak--${nl}`),
  ]);
  const r = await svc.api('POST', '/upload/store/v3/files?uploadType=multipart&fields=id,md5Checksum', {
    body,
    headers: { 'Content-Type': 'multipart/related; boundary=soak' },
  });
  if (r.status !== 200 || r.json().md5Checksum !== md5(content))
    throw new Error(`multipart upload: ${r.status} ${r.text}`);
  return r.json().id;
}

async function storedOf(svc: ServiceHandle, session: string): Promise<number | 'done'> {
  const q = await svc.api('PUT', session, {
    token: null,
    headers: { 'Content-Range': 'bytes */*', 'Content-Length': '0' },
  });
  if (q.status === 200) return 'done';
  if (q.status !== 308) throw new Error(`status query: ${q.status} ${q.text}`);
  return q.headers.range === undefined ? 0 : Number(/^bytes=0-(\d+)$/.exec(q.headers.range as string)?.[1]) + 1;
}

/** A chunk PUT over a raw socket that sends `sent` of its bytes, then drops (or stalls until the service ends it). */
async function brokenChunk(
  svc: ServiceHandle,
  session: string,
  content: Buffer,
  from: number,
  to: number,
  sent: number,
  stall: boolean,
): Promise<void> {
  const url = new URL(session);
  const conn = await openRaw(svc.url);
  await conn.write(
    requestHead('PUT', url.pathname + url.search, {
      Host: 'x',
      'Content-Length': to - from,
      'Content-Range': `bytes ${from}-${to - 1}/${content.length}`,
    }),
  );
  await conn.write(content.subarray(from, from + sent));
  if (!stall) {
    conn.drop();
    return;
  }
  // A stalled client: the status query below (newest request wins) or the idle timeout ends it.
  setTimeout(() => conn.drop(), 5_000).unref();
}

async function resumable(
  svc: ServiceHandle,
  rand: () => number,
  content: Buffer,
  chaos: 'none' | 'drop' | 'stall',
): Promise<string> {
  const start = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable&fields=id,md5Checksum', {
    body: { name: 'r' },
  });
  if (start.status !== 200) throw new Error(`resumable start: ${start.status} ${start.text}`);
  const session = start.headers.location as string;
  let broken = chaos === 'none';
  for (let stored = 0; ;) {
    const chunk = Math.max(BLOCK, Math.floor(rand() * 4) * BLOCK);
    const to = Math.min(content.length, stored + chunk);
    if (!broken && to - stored > 1000) {
      broken = true;
      await brokenChunk(svc, session, content, stored, to, Math.floor((to - stored) * rand()), chaos === 'stall');
      const now = await storedOf(svc, session);
      if (now === 'done') throw new Error('a broken chunk completed a session');
      stored = now;
      continue;
    }
    const r = await svc.api('PUT', session, {
      token: null,
      body: content.subarray(stored, to),
      headers: { 'Content-Range': `bytes ${stored}-${to - 1}/${content.length}` },
    });
    if (r.status === 200) {
      if (r.json().md5Checksum !== md5(content)) throw new Error('resumable: wrong md5');
      return r.json().id;
    }
    if (r.status !== 308) throw new Error(`resumable chunk: ${r.status} ${r.text}`);
    stored = Number(/^bytes=0-(\d+)$/.exec(r.headers.range as string)?.[1]) + 1;
  }
}

async function droppedMedia(svc: ServiceHandle, content: Buffer, rand: () => number): Promise<void> {
  const conn = await openRaw(svc.url);
  await conn.write(
    requestHead('POST', '/upload/store/v3/files?uploadType=media', {
      Host: 'x',
      Authorization: 'Bearer dev-token-alice',
      'Content-Type': 'application/octet-stream',
      'Content-Length': content.length + 1,
    }),
  );
  await conn.write(content.subarray(0, Math.floor(content.length * rand())));
  conn.drop();
}

async function client(svc: ServiceHandle, index: number, until: number, expected: Expectation[]): Promise<void> {
  const rand = seededRandom(SEED + index * 7919);
  while (Date.now() < until) {
    const size = Math.floor(rand() ** 2 * MAX_BYTES);
    const content = bytesOf(rand, size);
    const pick = rand();
    if (pick < 0.15) {
      tally('simple');
      expected.push({ id: await simple(svc, content), md5s: [md5(content)] });
    } else if (pick < 0.3) {
      tally('multipart');
      expected.push({ id: await multipart(svc, content, rand() < 0.5 ? '\n' : '\r\n'), md5s: [md5(content)] });
    } else if (pick < 0.5) {
      const chaos = (['none', 'drop', 'stall'] as const)[Math.floor(rand() * 3)];
      tally(`resumable-${chaos}`);
      const big = size < BLOCK ? bytesOf(rand, BLOCK + size) : content;
      expected.push({ id: await resumable(svc, rand, big, chaos), md5s: [md5(big)] });
    } else if (pick < 0.62) {
      tally('dropped-media');
      await droppedMedia(svc, content, rand);
    } else if (pick < 0.81) {
      tally('update-vs-delete');
      const id = await simple(svc, content);
      const next = bytesOf(rand, size);
      const update = svc.api('PUT', `/upload/store/v3/files/${id}?uploadType=media`, {
        body: next,
        headers: { 'Content-Type': 'application/octet-stream' },
      });
      const del = await svc.api('DELETE', `/store/v3/files/${id}`);
      const u = await refusedOrAnswered(update);
      if (del.status !== 204 || ![0, 200, 404].includes(u.status))
        throw new Error(`update vs delete: ${u.status} ${u.text} / ${del.status}`);
      expected.push({ id, gone: true });
    } else {
      tally('share-vs-revoke');
      const id = await simple(svc, content);
      const grant = await svc.api('POST', `/store/v3/files/${id}/permissions`, {
        body: { type: 'user', role: 'writer', emailAddress: 'bob@example.com' },
      });
      const next = bytesOf(rand, size);
      const bobUpdate = svc.api('PUT', `/upload/store/v3/files/${id}?uploadType=media`, {
        token: 'dev-token-bob',
        body: next,
        headers: { 'Content-Type': 'application/octet-stream' },
      });
      const bobShare = svc.api('POST', `/store/v3/files/${id}/permissions`, {
        token: 'dev-token-bob',
        body: { type: 'user', role: 'reader', emailAddress: 'carol@other.example' },
      });
      const revoke = await svc.api('DELETE', `/store/v3/files/${id}/permissions/${grant.json().id}`);
      const [u, s] = await Promise.all([refusedOrAnswered(bobUpdate), bobShare]);
      for (const r of [u, s])
        if (![0, 200, 403, 404].includes(r.status)) throw new Error(`share vs revoke: ${r.status} ${r.text}`);
      if (revoke.status !== 204) throw new Error(`revoke: ${revoke.status}`);
      // Carol's grant, if Bob won, is removed again so the final listing is Alice's alone.
      if (s.status === 200) await svc.api('DELETE', `/store/v3/files/${id}/permissions/${JSON.parse(s.text).id}`);
      expected.push({ id, md5s: u.status === 200 ? [md5(next)] : [md5(content), md5(next)] });
    }
  }
}

function peakRssMiB(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 102.4) / 10 : NaN;
}

async function settle<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  let v = await read();
  while (!ok(v) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 50));
    v = await read();
  }
  return v;
}

const svc = await startService({ config: { bodyIdleTimeoutMs: 1_000, maxConnectionsPerClient: 1_000 } });
const pid = svc.pid;
const began = Date.now();
const expected: Expectation[] = [];
const errors: string[] = [];
await Promise.all(
  Array.from({ length: CLIENTS }, (_, i) =>
    client(svc, i, began + SECONDS * 1000, expected).catch(
      (e: unknown) => void errors.push(`client ${i}: ${(e as Error).message}`),
    ),
  ),
);
const elapsed = (Date.now() - began) / 1000;

// Verification.
const live = expected.filter((e): e is { id: string; md5s: string[] } => !('gone' in e));
let mismatched = 0;
for (const e of live) {
  const r = await svc.api('GET', `/store/v3/files/${e.id}?alt=media`);
  if (r.status !== 200 || !e.md5s.includes(md5(r.body))) mismatched++;
}
let resurrected = 0;
for (const e of expected)
  if ('gone' in e && (await svc.api('GET', `/store/v3/files/${e.id}`)).status !== 404) resurrected++;
const listIds = async (): Promise<string[]> => {
  const ids: string[] = [];
  for (let token: string | undefined; ;) {
    const r = await svc.api(
      'GET',
      `/store/v3/files?pageSize=1000&fields=nextPageToken,files(id)${token ? `&pageToken=${token}` : ''}`,
    );
    ids.push(...r.json().files.map((f: { id: string }) => f.id));
    token = r.json().nextPageToken;
    if (!token) return ids;
  }
};
const listed = await listIds();
const duplicates = listed.length - live.length;
const dir = (d: string) => readdirSync(join(svc.dataDir, d));
// Every live file has content; the content of deleted or replaced files is removed just after their commit.
const stored = await settle(
  async () => dir('content').length,
  (n) => n === live.length,
);
const temps = await settle(
  async () => dir('tmp').length,
  (n) => n === 0,
);
const parts = await settle(
  async () => dir('sessions').length,
  (n) => n === 0,
);
const restarted = svc.pid !== pid || svc.crash !== undefined;
const peak = peakRssMiB(pid);
await svc.stop().catch((e: unknown) => void errors.push(String(e)));

const result = {
  name: 'soak',
  date: new Date().toISOString(),
  seed: SEED,
  seconds: Math.round(elapsed * 10) / 10,
  clients: CLIENTS,
  operations: counts,
  completedFiles: live.length,
  deletedFiles: expected.length - live.length,
  checks: {
    byteIdentical: live.length - mismatched,
    mismatched,
    deletedButPresent: resurrected,
    duplicatedOrUnexpectedFiles: duplicates,
    orphanContent: stored - live.length,
    tempFilesLeft: temps,
    partFilesLeft: parts,
    restarted,
  },
  serviceVmHWMMiB: peak,
  errors,
};
const pass =
  mismatched === 0 &&
  resurrected === 0 &&
  duplicates === 0 &&
  stored === live.length &&
  temps === 0 &&
  parts === 0 &&
  !restarted &&
  errors.length === 0;
mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
writeFileSync(join(import.meta.dirname, 'results', 'soak.json'), JSON.stringify({ ...result, pass }, null, 2) + '\n');
console.log(JSON.stringify({ ...result, pass }, null, 2));
process.exitCode = pass ? 0 : 1;
