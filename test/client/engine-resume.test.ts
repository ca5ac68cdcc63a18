// Pausing, resuming across "page lives" (a second engine over the same session store), session expiry, a service
// restart mid-upload, and offline periods — in Node against the real reference service. A record written before the
// file's bytes were named `file` (issue 38) holds its kept copy as `blob`: it resumes from that copy all the same.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { SessionRecord } from '../../src/uploader/contract/ports.ts';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import {
  advanceClock,
  addFault,
  clearFaults,
  download,
  filesNamed,
  harness,
  md5,
  randomFile,
} from './helpers/engine-harness.ts';
import { startCountingProxy } from './helpers/counting-proxy.ts';

const KiB = 1024;
const MiB = 1024 * KiB;

let service: ServiceHandle;
before(async () => {
  service = await startService();
});
after(async () => {
  await service.stop();
});

test('pause after an acknowledged chunk, resume, finish byte-identically', async () => {
  const h = harness(service.url, { resumableThreshold: 0, chunkSize: 256 * KiB });
  const file = randomFile(MiB + 1);
  await h.engine.add('t', file);
  await h.when((e, s) => e === 'progress' && s.bytesAcknowledged >= 256 * KiB);
  h.engine.pause('t');
  const paused = await h.when((_e, s) => s.state === 'paused');
  assert.ok(paused.bytesAcknowledged >= 256 * KiB);
  const [record] = await h.store.list();
  assert.equal(record?.acknowledged, paused.bytesAcknowledged);
  assert.equal((record?.hashState as { impl?: string } | undefined)?.impl, 'wasm');
  // Its session belongs to a task of this engine (paused, not ended): not an interrupted upload to offer.
  assert.deepEqual(await h.engine.interrupted(), []);
  // Nor one to resume by its id, or to discard: the paused task goes on with it.
  await assert.rejects(h.engine.add('u', file, {}, record.id), { code: 'not-found' });
  await h.engine.discard(record.id);
  assert.deepEqual(
    (await h.store.list()).map((r) => r.id),
    [record.id],
  );
  h.engine.resume('t');
  const stored = await h.engine.done('t');
  assert.equal(md5(await download(service.url, stored.id)), md5(file.bytes));
});

test('a new page life resumes the stored session (status query first) instead of starting over', async () => {
  const first = harness(service.url, { resumableThreshold: 0, chunkSize: 512 * KiB });
  const file = randomFile(2 * MiB + 3);
  await first.engine.add('a', file);
  await first.when((e, s) => e === 'progress' && s.bytesAcknowledged >= MiB);
  await first.engine.destroy();
  const [record] = await first.store.list();
  assert.ok(record && record.acknowledged >= MiB);

  // Same store, new engine, same file (same fingerprint): the upload continues from the acknowledged offset.
  const second = harness(service.url, { resumableThreshold: 0, chunkSize: 512 * KiB, store: first.store });
  const listed = await second.engine.interrupted();
  assert.deepEqual(
    listed.map((u) => [u.id, u.name, u.total]),
    [['a', file.name, file.file.size]],
  );
  // Persisting is on by default, with room for the file itself: the record kept the Blob, no file to choose again.
  assert.equal(listed[0]?.canResumeWithoutFile, true);
  const snap = await second.engine.add('b', file);
  assert.equal(snap.bytesAcknowledged, record.acknowledged);
  const stored = await second.engine.done('b');
  const sentFrom = Math.min(...second.events.filter((e) => e.event === 'progress').map((e) => e.snapshot.bytesSent));
  assert.ok(sentFrom >= record.acknowledged, `resumed at ${sentFrom}, not from 0`);
  assert.equal(md5(await download(service.url, stored.id)), md5(file.bytes));
  assert.deepEqual(await filesNamed(service.url, file.name), [{ id: stored.id }]);
  assert.deepEqual(await second.store.list(), []);
});

test('a file rewritten in place (same name, size, date and type) is not resumed: its sampled slices differ', async () => {
  const first = harness(service.url, { resumableThreshold: 0, chunkSize: 256 * KiB });
  const file = randomFile(MiB + 7);
  await first.engine.add('a', file);
  await first.when((e, s) => e === 'progress' && s.bytesAcknowledged >= 256 * KiB);
  await first.engine.destroy();
  const [record] = await first.store.list();
  assert.match(record?.sample ?? '', /^1048583:[0-9a-f]{16}$/);

  // Only the middle slice differs: a tool that rewrites a file and keeps its date would leave just this.
  const edited = Buffer.from(file.bytes);
  edited[Math.floor(edited.length / 2)] ^= 0xff;
  const rewritten = { ...file, file: new Blob([edited]) };
  const second = harness(service.url, { resumableThreshold: 0, chunkSize: 256 * KiB, store: first.store });
  await assert.rejects(
    second.engine.add('b', rewritten, {}, 'a'),
    (error: { code?: string }) => error.code === 'file-changed',
  );
  // Added as new (no explicit resume), it starts its own session from byte 0; the old one stays interrupted.
  const snap = await second.engine.add('c', rewritten);
  assert.equal(snap.bytesAcknowledged, 0);
  const stored = await second.engine.done('c');
  assert.equal(md5(await download(service.url, stored.id)), md5(edited));
  assert.deepEqual(
    (await second.engine.interrupted()).map((u) => u.id),
    ['a'],
  );
  await second.engine.discard('a');
});

test('the same bytes under another name, date or type are another file: resuming by id is file-changed', async () => {
  const first = harness(service.url, { resumableThreshold: 0, chunkSize: 256 * KiB });
  const file = randomFile(MiB + 9);
  await first.engine.add('a', file);
  await first.when((e, s) => e === 'progress' && s.bytesAcknowledged >= 256 * KiB);
  await first.engine.destroy();
  const second = harness(service.url, { resumableThreshold: 0, chunkSize: 256 * KiB, store: first.store });
  const others = [
    { ...file, name: `renamed-${file.name}` },
    { ...file, lastModified: file.lastModified + 1 },
    { ...file, type: 'text/plain' },
  ];
  for (const other of others) {
    await assert.rejects(
      second.engine.add(`b-${others.indexOf(other)}`, other, {}, 'a'),
      (error: { code?: string; message?: string }) => {
        assert.equal(error.code, 'file-changed');
        assert.equal(error.message, `${file.name} is not the file this upload started with: it changed since`);
        return true;
      },
    );
  }
  // The file itself, as it was, still resumes it.
  const snap = await second.engine.add('c', file, {}, 'a');
  assert.ok(snap.bytesAcknowledged >= 256 * KiB);
  const stored = await second.engine.done('c');
  assert.equal(md5(await download(service.url, stored.id)), md5(file.bytes));
});

test('a record that keeps its copy as `blob` (the old name) resumes from that copy, stored byte-identically', async () => {
  const first = harness(service.url, { resumableThreshold: 0, chunkSize: 256 * KiB });
  const file = randomFile(MiB + 7);
  await first.engine.add('a', file);
  await first.when((e, s) => e === 'progress' && s.bytesAcknowledged >= 256 * KiB);
  await first.engine.destroy();
  const [record] = await first.store.list();
  assert.ok(record?.file, 'the copy was kept (a file under the default quota)');
  const acknowledged = record.acknowledged;

  // As the earlier version stored it: the copy under `blob`, no `file`.
  const { file: copy, ...rest } = record;
  await first.store.put({ ...rest, blob: copy } as SessionRecord);

  const second = harness(service.url, { resumableThreshold: 0, chunkSize: 256 * KiB, store: first.store });
  const [listed] = await second.engine.interrupted();
  assert.equal(listed?.canResumeWithoutFile, true, 'listed as resumable without choosing the file');
  // What the worker hands the page to resume with (`interruptedSource`): the kept copy.
  const kept = (await second.engine.record('a'))?.file;
  assert.equal(kept?.size, file.file.size);

  const snap = await second.engine.add(
    'b',
    { file: kept!, name: file.name, type: file.type, lastModified: 1_700_000_000_000 },
    {},
    'a',
  );
  assert.equal(snap.bytesAcknowledged, acknowledged, 'resumed where the service stood, not from byte 0');
  await second.when((e, s) => e === 'progress' && s.bytesAcknowledged > acknowledged);
  const rewritten = (await first.store.get('a')) as (SessionRecord & { blob?: Blob }) | undefined;
  if (rewritten) assert.ok(!('blob' in rewritten), 'the record is written back with the new name only');
  const stored = await second.engine.done('b');
  assert.equal(md5(await download(service.url, stored.id)), md5(file.bytes));
  assert.deepEqual(await first.store.list(), [], 'the record is gone with its upload');
});

test('an expired session (404) starts a new one from byte 0', async () => {
  const h = harness(service.url, { resumableThreshold: 0, chunkSize: 256 * KiB });
  const file = randomFile(MiB);
  await h.engine.add('t', file);
  await h.when((e, s) => e === 'progress' && s.bytesAcknowledged >= 256 * KiB);
  h.engine.pause('t');
  await h.when((_e, s) => s.state === 'paused');
  await advanceClock(service.url, 8 * 24 * 3600 * 1000);
  h.engine.resume('t');
  const stored = await h.engine.done('t');
  assert.ok(h.events.some((e) => e.event === 'retry' && e.snapshot.retry?.cause === 'session-expired'));
  assert.equal(md5(await download(service.url, stored.id)), md5(file.bytes));
  assert.deepEqual(await filesNamed(service.url, file.name), [{ id: stored.id }]);
});

test('a service restart mid-upload: the upload continues where the service says', async () => {
  const h = harness(service.url, {
    resumableThreshold: 0,
    chunkSize: 256 * KiB,
    stallTimeoutMs: 2000,
    backoff: { baseMs: 250, capMs: 2000 },
    maxRetries: 12,
  });
  const file = randomFile(2 * MiB);
  // Slow the chunks down so the restart lands in the middle of the upload.
  await addFault(service.url, {
    match: { method: 'PUT', uploadType: 'resumable' },
    action: { type: 'delay', ms: 100 },
    times: 100,
  });
  await h.engine.add('t', file);
  await h.when((e, s) => e === 'progress' && s.bytesAcknowledged >= 512 * KiB);
  await service.kill('SIGKILL'); // a crash, not a clean stop
  await service.restart();
  const stored = await h.engine.done('t');
  assert.equal(md5(await download(service.url, stored.id)), md5(file.bytes));
  assert.deepEqual(await filesNamed(service.url, file.name), [{ id: stored.id }]);
  await clearFaults(service.url);
});

test('offline pauses without spending retries; online resumes', async () => {
  // Every backoff is 49 ms exactly (no jitter), for the job and for the witness below.
  const backoff = { baseMs: 50, capMs: 50, random: () => 0.99 };
  const h = harness(service.url, { resumableThreshold: 0, chunkSize: 256 * KiB, maxRetries: 1, backoff });
  const file = randomFile(MiB);
  await addFault(service.url, {
    match: { method: 'PUT', uploadType: 'resumable' },
    action: { type: 'delay', ms: 50 },
    times: 100,
  });
  await h.engine.add('t', file);
  await h.when((e, s) => e === 'progress' && s.bytesAcknowledged >= 256 * KiB);
  h.online.set(false);
  const offlineAt = h.events.length;
  const waiting = await h.when((e, s) => e === 'retry' && s.retry?.cause === 'offline');
  assert.equal(waiting.state, 'retrying');
  // A job that spent a retry offline would back off (49 ms) and try again. The witness, an upload of another engine
  // refused twice with the same backoff, ends its first backoff after any the job began before it: once it has
  // retried twice, such a job would have spent its retry and shown it.
  const witness = harness(service.url, { backoff, maxRetries: 5 });
  await addFault(service.url, {
    match: { method: 'POST', uploadType: 'multipart' },
    action: { type: 'status', status: 503 },
    times: 2,
  });
  await witness.engine.add('w', randomFile(KiB));
  await witness.when((e, s) => e === 'retry' && s.retry?.attempt === 2);
  const whileOffline = h.events.slice(offlineAt).map(({ event, snapshot }) => ({ event, retry: snapshot.retry }));
  assert.deepEqual(
    whileOffline.filter(({ event }) => event !== 'progress'),
    [{ event: 'retry', retry: { attempt: waiting.retry!.attempt, delayMs: 0, cause: 'offline' } }],
    'offline, the job only waited',
  );
  assert.equal(h.engine.snapshot('t')!.state, 'retrying');
  await witness.engine.done('w');
  h.online.set(true);
  const stored = await h.engine.done('t');
  assert.equal(md5(await download(service.url, stored.id)), md5(file.bytes));
  await clearFaults(service.url);
});

test('cancel deletes the session and its record', async () => {
  const h = harness(service.url, { resumableThreshold: 0, chunkSize: 256 * KiB });
  await addFault(service.url, {
    match: { method: 'PUT', uploadType: 'resumable' },
    action: { type: 'delay', ms: 50 },
    times: 100,
  });
  await h.engine.add('t', randomFile(MiB));
  await h.when((e, s) => e === 'progress' && s.bytesAcknowledged >= 256 * KiB);
  const [record] = await h.store.list();
  await h.engine.cancel('t');
  await assert.rejects(h.engine.done('t'), { code: 'cancelled' });
  assert.deepEqual(await h.store.list(), []);
  const res = await fetch(record.sessionUri, { method: 'PUT', headers: { 'content-range': 'bytes */1048576' } });
  assert.equal(res.status, 404);
  await clearFaults(service.url);
});

test(
  'a cancel whose session DELETE is never answered still ends, after the stall timeout (the session then expires)',
  { timeout: 60_000 },
  async () => {
    // A stall timeout the 50 ms chunks never come near on a busy machine: the only request that reaches it is the DELETE.
    const h = harness(service.url, { resumableThreshold: 0, chunkSize: 256 * KiB, stallTimeoutMs: 3000 });
    await addFault(service.url, {
      match: { method: 'PUT', uploadType: 'resumable' },
      action: { type: 'delay', ms: 50 },
      times: 100,
    });
    // Far longer than this test may take: without a bound on the DELETE, the cancel would never end.
    await addFault(service.url, { match: { method: 'DELETE' }, action: { type: 'delay', ms: 600_000 }, times: 1 });
    await h.engine.add('t', randomFile(MiB));
    await h.when((e, s) => e === 'progress' && s.bytesAcknowledged >= 256 * KiB);
    await h.engine.cancel('t');
    await assert.rejects(h.engine.done('t'), { code: 'cancelled' });
    assert.deepEqual(await h.store.list(), []);
    await clearFaults(service.url);
  },
);

test(
  'a cancel while the session start is unanswered cancels the session the service then makes',
  { timeout: 60_000 },
  async () => {
    const proxy = await startCountingProxy(service.url);
    try {
      const h = harness(proxy.url, { resumableThreshold: 0, chunkSize: 256 * KiB });
      // The service holds the start, so the cancel arrives before the answer that names the session.
      await addFault(service.url, {
        match: { method: 'POST', uploadType: 'resumable' },
        action: { type: 'delay', ms: 300 },
        times: 1,
      });
      await h.engine.add('t', randomFile(MiB));
      await proxy.arrived((r) => r.method === 'POST' && r.url.includes('uploadType=resumable'));
      await h.engine.cancel('t');
      await assert.rejects(h.engine.done('t'), { code: 'cancelled' });
      assert.equal((await proxy.answered((r) => r.method === 'POST')).status, 200);
      // Without this, the session would sit on the service for a week.
      const deleted = await proxy.answered((r) => r.method === 'DELETE');
      assert.match(deleted.url, /upload_id=/);
      assert.equal(deleted.status, 499);
      const status = await fetch(`${proxy.url}${deleted.url}`, {
        method: 'PUT',
        headers: { 'content-range': 'bytes */1048576' },
      });
      assert.equal(status.status, 404);
      assert.deepEqual(await h.store.list(), []);
    } finally {
      await proxy.close();
      await clearFaults(service.url);
    }
  },
);
