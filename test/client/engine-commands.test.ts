// Commands that cross each other on one task: a cancel that is still deleting the record and the session must not
// be undone by a resume or retry that arrives meanwhile — in Node against the real reference service.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { MemoryLocks } from '../../src/uploader/adapters/memory-locks.ts';
import { MemorySessionStore } from '../../src/uploader/adapters/memory-session-store.ts';
import { addFault, clearFaults, download, filesNamed, harness, md5, randomFile } from './helpers/engine-harness.ts';

const KiB = 1024;
const MiB = 1024 * KiB;

let service: ServiceHandle;
before(async () => {
  service = await startService();
});
after(async () => {
  await service.stop();
});

test('resume right after cancelling a paused task does not bring it back: it stays cancelled, no file, no record', async () => {
  const h = harness(service.url, { resumableThreshold: 0, chunkSize: 256 * KiB });
  await addFault(service.url, {
    match: { method: 'PUT', uploadType: 'resumable' },
    action: { type: 'delay', ms: 50 },
    times: 100,
  });
  const file = randomFile(MiB);
  await h.engine.add('t', file);
  await h.when((e, s) => e === 'progress' && s.bytesAcknowledged >= 256 * KiB);
  h.engine.pause('t');
  await h.when((_, s) => s.state === 'paused');
  assert.equal(h.events.find((e) => e.snapshot.state === 'paused')?.event, 'change', 'a pause is told as a change');
  await clearFaults(service.url);
  const [record] = await h.store.list();

  const cancelled = h.engine.cancel('t'); // still deleting the record and the session when the resume arrives
  h.engine.resume('t');
  assert.equal(h.engine.snapshot('t')?.state, 'paused', 'the resume re-armed a task that is being cancelled');
  await cancelled;
  await assert.rejects(h.engine.done('t'), { code: 'cancelled' });
  assert.equal(h.engine.snapshot('t')?.state, 'cancelled');
  // A pause that comes after the end changes nothing: the task stays cancelled, and no event tells otherwise.
  const told = h.events.length;
  h.engine.pause('t');
  assert.equal(h.engine.snapshot('t')?.state, 'cancelled');
  assert.equal(h.events.length, told);
  assert.deepEqual(await h.store.list(), []);
  assert.deepEqual(await filesNamed(service.url, file.name), []);
  const res = await fetch(record.sessionUri, { method: 'PUT', headers: { 'content-range': `bytes */${MiB}` } });
  assert.equal(res.status, 404);
  // Only the first run ever started: one `start` event, and every `uploading` state came before the pause.
  assert.deepEqual(h.events.filter((e) => e.event === 'start').length, 1);
  const paused = h.events.findIndex((e) => e.snapshot.state === 'paused');
  assert.deepEqual(
    h.events
      .slice(paused)
      .map((e) => e.snapshot.state)
      .filter((s) => s === 'queued' || s === 'uploading'),
    [],
  );
});

test('discarding an interrupted upload that a task has resumed leaves it alone: the task keeps its session and record', async () => {
  const store = new MemorySessionStore();
  const first = harness(service.url, { resumableThreshold: 0, chunkSize: 256 * KiB, store });
  const file = randomFile(2 * MiB);
  await first.engine.add('a', file);
  await first.when((e, s) => e === 'progress' && s.bytesAcknowledged >= 256 * KiB);
  void first.engine.destroy(); // the page life ends; its record stays

  await addFault(service.url, {
    match: { method: 'PUT', uploadType: 'resumable' },
    action: { type: 'delay', ms: 50 },
    times: 100,
  });
  const second = harness(service.url, { resumableThreshold: 0, chunkSize: 256 * KiB, store });
  await second.engine.add('b', file, {}, 'a');
  await second.when((e, s) => e === 'progress' && s.bytesAcknowledged >= 512 * KiB);
  await second.engine.discard('a'); // e.g. a stale "discard" button of the interrupted list
  assert.equal((await store.get('a'))?.id, 'a', 'the record of a running upload was deleted');
  const stored = await second.engine.done('b');
  await clearFaults(service.url);
  assert.equal(md5(await download(service.url, stored.id)), md5(file.bytes));
  assert.deepEqual(await filesNamed(service.url, file.name), [{ id: stored.id }]);
  assert.deepEqual(
    second.events.filter((e) => e.event === 'retry').map((e) => e.snapshot.retry?.cause),
    [],
  );
  assert.deepEqual(await store.list(), []);
});

test('discarding an upload another tab is sending leaves it alone; once nobody holds it, discard forgets it', async () => {
  const store = new MemorySessionStore();
  const locks = new MemoryLocks();
  const sender = harness(service.url, { resumableThreshold: 0, chunkSize: 256 * KiB, store, locks });
  const other = harness(service.url, { resumableThreshold: 0, chunkSize: 256 * KiB, store, locks });
  await addFault(service.url, {
    match: { method: 'PUT', uploadType: 'resumable' },
    action: { type: 'delay', ms: 50 },
    times: 100,
  });
  const file = randomFile(MiB);
  await sender.engine.add('s', file);
  await sender.when((e, s) => e === 'progress' && s.bytesAcknowledged >= 256 * KiB);
  await other.engine.discard('s');
  assert.equal((await store.get('s'))?.id, 's', 'the record of an upload another tab holds was deleted');
  sender.engine.pause('s');
  await sender.when((_, s) => s.state === 'paused');
  await clearFaults(service.url);
  const [record] = await store.list();
  await other.engine.discard('s');
  assert.deepEqual(await store.list(), []);
  const res = await fetch(record.sessionUri, { method: 'PUT', headers: { 'content-range': `bytes */${MiB}` } });
  assert.equal(res.status, 404);
});
