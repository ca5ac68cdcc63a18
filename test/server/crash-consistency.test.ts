/**
 * Crash consistency: many seeded runs, each sending a PUT on a resumable session and SIGKILLing the service at a
 * random point of it — half of them while the disk is full (an admin `disk` fault fails the writes part-way) —
 * then restarting on the same data directory. After every restart the status query's range must equal the part
 * file's size, the part must be a true prefix of the upload, and the upload must complete byte-identical from that
 * range. Bounded: RUNS runs of at most 12 blocks each (a few seconds per run at most on this machine).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as turn } from 'node:timers/promises';
import { after, before, it } from 'node:test';
import { bytesOf } from './helpers/bytes.ts';
import { openRaw, requestHead } from './helpers/raw-http.ts';
import { type ServiceHandle, startService } from './helpers/service.ts';
import { seededRandom } from './helpers/seeded-random.ts';

const BLOCK = 256 * 1024;
const RUNS = Number(process.env.CRASH_RUNS ?? 8);
const SEED = Number(process.env.CRASH_SEED ?? 29);
const md5 = (b: Uint8Array) => createHash('md5').update(b).digest('hex');

let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

async function storedNow(uri: string): Promise<number> {
  const q = await svc.api('PUT', uri, { token: null, body: '', headers: { 'Content-Range': 'bytes */*' } });
  assert.equal(q.status, 308, q.text);
  const range = q.headers.range as string | undefined;
  return range === undefined ? 0 : Number(/^bytes=0-(\d+)$/.exec(range)![1]) + 1;
}

it(`${RUNS} kills at random points of a PUT keep the range equal to bytes on disk`, { timeout: 120_000 }, async () => {
  const rand = seededRandom(SEED);
  const covered: string[] = [];
  for (let run = 0; run < RUNS; run++) {
    const size = Math.floor(rand() * 12 * BLOCK) + 1;
    const data = bytesOf(size, run);
    const killAt = Math.floor(rand() * size);
    const fullDisk = run % 2 === 1;
    // The disk fills before the kill point, so the kill comes after a failed write (and its answer, often).
    // Every other full-disk run is killed only after the failure's answer, so the cut-back it made is what is judged:
    // its disk fills inside a block the sender completes, or no write would fail before the kill.
    const sentBlocks = Math.floor(killAt / BLOCK) * BLOCK;
    const afterAnswer = run % 4 === 1 && sentBlocks > 0;
    const diskAfter = fullDisk ? Math.floor(rand() * (afterAnswer ? sentBlocks : killAt)) : undefined;
    const start = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable', { body: { name: `c${run}` } });
    const uri = start.headers.location as string;
    const id = start.headers['x-svc-upload-id'] as string;
    if (diskAfter !== undefined) {
      const f = await svc.api('POST', '/__admin/faults', {
        token: null,
        body: { match: { method: 'PUT' }, action: { type: 'disk', error: 'ENOSPC', afterBytes: diskAfter } },
      });
      assert.equal(f.status, 200);
    }
    const url = new URL(uri);
    const conn = await openRaw(svc.url);
    await conn.write(requestHead('PUT', url.pathname + url.search, { Host: 'x', 'Content-Length': size }));
    // A run killed after the answer sends its whole body: a failed write is reported when the body ends.
    await conn.write(data.subarray(0, afterAnswer ? size : killAt));
    // Kill once the service has written what it will of the bytes sent (or answered): mid-request, not before it.
    const part = join(svc.dataDir, 'sessions', `${id}.part`);
    const target = Math.min(Math.floor(killAt / BLOCK) * BLOCK, diskAfter ?? Infinity);
    const written = () => !afterAnswer && existsSync(part) && statSync(part).size >= target;
    while (conn.received().length === 0 && !written()) await turn();
    await svc.kill('SIGKILL');
    conn.drop();
    await svc.restart();
    await svc.api('DELETE', '/__admin/faults', { token: null });

    const stored = await storedNow(uri);
    const onDisk = existsSync(part) ? readFileSync(part) : Buffer.alloc(0);
    assert.equal(onDisk.length, stored, `run ${run}: the range covers exactly the part file`);
    assert.ok(onDisk.equals(data.subarray(0, stored)), `run ${run}: the part is a true prefix of the upload`);
    const done = await svc.api('PUT', uri, {
      token: null,
      body: data.subarray(stored),
      headers: { 'Content-Range': `bytes ${stored}-${size - 1}/${size}` },
    });
    assert.equal(done.status, 200, `run ${run}: ${done.text}`);
    assert.equal(done.json().md5Checksum, md5(data), `run ${run}: byte-identical`);
    covered.push(
      `${killAt}/${size}${fullDisk ? ` full@${diskAfter}${afterAnswer ? ' answered' : ''}` : ''} → ${stored}`,
    );
  }
  // The kill points covered (bytes sent / size, the full disk's point, the range after restart), for the report.
  console.log(`crash-consistency seed ${SEED}: ${covered.join('; ')}`);
});
