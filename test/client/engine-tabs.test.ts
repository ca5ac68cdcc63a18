// Two "tabs" (two engines sharing one session store, one lock manager and a real BroadcastChannel), retry after a
// failure, and session-record expiry under an injected clock — in Node against the real reference service.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, afterEach, before, test } from 'node:test';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { broadcastChannel } from '../../src/uploader/adapters/broadcast-channel.ts';
import { MemoryLocks } from '../../src/uploader/adapters/memory-locks.ts';
import { MemorySessionStore } from '../../src/uploader/adapters/memory-session-store.ts';
import { systemClock } from '../../src/uploader/adapters/system-clock.ts';
import { SESSION_LIFETIME_MS } from '../../src/uploader/engine/session-records.ts';
import type { ChannelPort, ClockPort, HttpPort } from '../../src/uploader/contract/ports.ts';
import type { UploadError } from '../../src/uploader/contract/upload-error.ts';
import { withTimeout } from '../../src/uploader/contract/with-timeout.ts';
import { addFault, clearFaults, download, filesNamed, harness, md5, randomFile } from './helpers/engine-harness.ts';
import { nodeHttp } from './helpers/node-http-port.ts';

const KiB = 1024;
const MiB = 1024 * KiB;

let service: ServiceHandle;
const channels: ChannelPort[] = [];
before(async () => {
  service = await startService();
});
afterEach(async () => {
  for (const channel of channels.splice(0)) channel.close();
  await clearFaults(service.url);
});
after(async () => {
  await service.stop();
});

/** Two channel ports on one fresh name: two tabs of one origin. */
function tabChannels(): [ChannelPort, ChannelPort] {
  const name = `test-${randomUUID()}`;
  const pair: [ChannelPort, ChannelPort] = [broadcastChannel(name), broadcastChannel(name)];
  channels.push(...pair);
  return pair;
}

/** The real node:http port, recording the requests that carry bytes to a session (data PUTs, not status queries). */
function recordingHttp(): HttpPort & { dataPuts: string[] } {
  const dataPuts: string[] = [];
  return {
    dataPuts,
    send(request, hooks) {
      const bytes = (request.body ?? []).reduce(
        (n, piece) => n + (piece instanceof Blob ? piece.size : piece.length),
        0,
      );
      if (request.method === 'PUT' && request.url.includes('upload_id=') && bytes > 0)
        dataPuts.push(request.headers['content-range'] ?? 'whole');
      return nodeHttp.send(request, hooks);
    },
  };
}

test('a second tab adding the same file follows the first tab instead of uploading the session too', async () => {
  const locks = new MemoryLocks();
  const [channelA, channelB] = tabChannels();
  const store = new MemorySessionStore();
  const a = harness(service.url, { resumableThreshold: 0, chunkSize: 256 * KiB, store, locks, channel: channelA });
  const httpB = recordingHttp();
  const b = harness(service.url, {
    resumableThreshold: 0,
    chunkSize: 256 * KiB,
    store,
    locks,
    channel: channelB,
    http: httpB,
  });
  await addFault(service.url, {
    match: { method: 'PUT', uploadType: 'resumable' },
    action: { type: 'delay', ms: 60 },
    times: 100,
  });
  const file = randomFile(2 * MiB + 5);
  await a.engine.add('a', file);
  await a.when((e, s) => e === 'progress' && s.bytesAcknowledged >= 256 * KiB);

  assert.deepEqual(await b.engine.interrupted(), [], 'a session another tab uploads is not "interrupted"');
  await b.engine.add('b', file);
  const following = await b.when((_e, s) => s.inOtherTab === true);
  assert.equal(following.state, 'uploading');
  // The stored record may be a write behind A's acknowledgements; B then mirrors A's own progress messages.
  const mirrored = await b.when((e, s) => e === 'progress' && s.bytesAcknowledged >= 512 * KiB);
  assert.equal(mirrored.inOtherTab, true);

  const [stored, seenByB] = await Promise.all([a.engine.done('a'), b.engine.done('b')]);
  assert.equal(seenByB.id, stored.id);
  assert.deepEqual(httpB.dataPuts, [], 'the second tab sent no bytes');
  assert.equal(md5(await download(service.url, stored.id)), md5(file.bytes));
  assert.deepEqual(await filesNamed(service.url, file.name), [{ id: stored.id }]);
  assert.deepEqual(await store.list(), []);
});

test('when the uploading tab cancels, the following tab ends cancelled too: no file, no record', async () => {
  const locks = new MemoryLocks();
  const [channelA, channelB] = tabChannels();
  const store = new MemorySessionStore();
  const a = harness(service.url, { resumableThreshold: 0, chunkSize: 256 * KiB, store, locks, channel: channelA });
  const httpB = recordingHttp();
  const b = harness(service.url, {
    resumableThreshold: 0,
    chunkSize: 256 * KiB,
    store,
    locks,
    channel: channelB,
    http: httpB,
  });
  await addFault(service.url, {
    match: { method: 'PUT', uploadType: 'resumable' },
    action: { type: 'delay', ms: 60 },
    times: 100,
  });
  const file = randomFile(2 * MiB);
  await a.engine.add('a', file);
  await a.when((e, s) => e === 'progress' && s.bytesAcknowledged >= 256 * KiB);
  await b.engine.add('b', file);
  await b.when((_e, s) => s.inOtherTab === true);

  await a.engine.cancel('a');
  await assert.rejects(a.engine.done('a'), { code: 'cancelled' });
  await assert.rejects(b.engine.done('b'), { code: 'cancelled' });
  assert.equal(b.engine.snapshot('b')?.state, 'cancelled');
  assert.deepEqual(httpB.dataPuts, [], 'the following tab sent no bytes');
  assert.deepEqual(await filesNamed(service.url, file.name), []);
  assert.deepEqual(await store.list(), []);
});

test('when the uploading tab lets go (pause), the following tab takes over from what the service stored', async () => {
  const locks = new MemoryLocks();
  const [channelA, channelB] = tabChannels();
  const store = new MemorySessionStore();
  const httpA = recordingHttp();
  const a = harness(service.url, {
    resumableThreshold: 0,
    chunkSize: 256 * KiB,
    store,
    locks,
    channel: channelA,
    http: httpA,
  });
  const httpB = recordingHttp();
  const b = harness(service.url, {
    resumableThreshold: 0,
    chunkSize: 256 * KiB,
    store,
    locks,
    channel: channelB,
    http: httpB,
  });
  await addFault(service.url, {
    match: { method: 'PUT', uploadType: 'resumable' },
    action: { type: 'delay', ms: 60 },
    times: 100,
  });
  const file = randomFile(2 * MiB);
  await a.engine.add('a', file);
  await a.when((e, s) => e === 'progress' && s.bytesAcknowledged >= 256 * KiB);
  await b.engine.add('b', file);
  await b.when((_e, s) => s.inOtherTab === true);

  a.engine.pause('a');
  const paused = await a.when((_e, s) => s.state === 'paused');
  // B now holds the lock; A, resumed, must follow B rather than send.
  await b.when((e, s) => e === 'progress' && !s.inOtherTab && s.bytesAcknowledged > paused.bytesAcknowledged);
  const putsOfA = httpA.dataPuts.length;
  a.engine.resume('a');
  const [fromA, fromB] = await Promise.all([a.engine.done('a'), b.engine.done('b')]);
  assert.equal(fromA.id, fromB.id);
  assert.equal(httpA.dataPuts.length, putsOfA, 'the paused tab sent nothing once the other tab had the session');
  assert.ok(httpB.dataPuts.length > 0);
  assert.ok(
    !httpB.dataPuts.includes(`bytes 0-${256 * KiB - 1}/${file.file.size}`),
    'the second tab did not start over',
  );
  assert.equal(md5(await download(service.url, fromB.id)), md5(file.bytes));
  assert.deepEqual(await filesNamed(service.url, file.name), [{ id: fromB.id }]);
  assert.deepEqual(await store.list(), []);
});

test('retry after a failure: the failed attempt rejects, the retried attempt gets a new done that resolves', async () => {
  const h = harness(service.url, { maxRetries: 0 });
  await addFault(service.url, {
    match: { method: 'POST', uploadType: 'multipart' },
    action: { type: 'status', status: 503 },
    times: 1,
  });
  const file = randomFile(100 * KiB);
  await h.engine.add('t', file);
  const first = h.engine.done('t');
  const error = await first.then(
    () => undefined,
    (e: UploadError) => e,
  );
  assert.equal(error?.code, 'retries-exhausted');
  assert.equal(error?.status, 503);
  assert.equal(h.events.at(-1)?.event, 'error');
  assert.equal(h.events.at(-1)?.snapshot.state, 'failed');

  const failedAt = h.events.length;
  h.engine.resume('t');
  const second = h.engine.done('t');
  assert.notEqual(second, first);
  assert.equal(h.events[failedAt]?.snapshot.state, 'queued', 'the snapshot leaves failed as the new done begins');
  const stored = await second;
  await assert.rejects(first, { code: 'retries-exhausted' });
  assert.equal(h.events.at(-1)?.event, 'success');
  assert.equal(md5(await download(service.url, stored.id)), md5(file.bytes));
  assert.deepEqual(await filesNamed(service.url, file.name), [{ id: stored.id }]);
});

test('session records expire after one week without activity (injected clock)', async () => {
  let now = 1_800_000_000_000;
  const clock: ClockPort = { now: () => now, sleep: systemClock.sleep };
  const store = new MemorySessionStore();
  const first = harness(service.url, { resumableThreshold: 0, chunkSize: 256 * KiB, store, clock });
  await addFault(service.url, {
    match: { method: 'PUT', uploadType: 'resumable' },
    action: { type: 'delay', ms: 60 },
    times: 100,
  });
  const file = randomFile(MiB);
  await first.engine.add('t', file);
  await first.when((e, s) => e === 'progress' && s.bytesAcknowledged >= 256 * KiB);
  first.engine.pause('t');
  await first.when((_e, s) => s.state === 'paused');
  void first.engine.destroy();
  const [record] = await store.list();
  assert.equal(record?.updatedAt, now, 'timestamps come from the injected clock');

  now += SESSION_LIFETIME_MS; // exactly one week: still alive
  const second = harness(service.url, { store, clock });
  assert.deepEqual(
    (await second.engine.interrupted()).map((u) => u.id),
    ['t'],
  );
  now += 1; // one week and a millisecond without activity: gone
  assert.deepEqual(await second.engine.interrupted(), []);
  assert.deepEqual(await store.list(), []);
});

test('with no channel between the tabs, the second tab waits for the session lock, then ends with the same file, stored once', async () => {
  // A host without BroadcastChannel: the second tab hears nothing of the first's progress, only its lock's release.
  const locks = new MemoryLocks();
  const store = new MemorySessionStore();
  const a = harness(service.url, { resumableThreshold: 0, chunkSize: 256 * KiB, store, locks });
  const b = harness(service.url, { resumableThreshold: 0, chunkSize: 256 * KiB, store, locks });
  await addFault(service.url, {
    match: { method: 'PUT', uploadType: 'resumable' },
    action: { type: 'delay', ms: 60 },
    times: 100,
  });
  const file = randomFile(MiB + 5);
  await a.engine.add('a', file);
  await a.when((e, s) => e === 'progress' && s.bytesAcknowledged >= 256 * KiB);
  await b.engine.add('b', file);
  const following = await b.when((_e, s) => s.inOtherTab === true);
  assert.equal(following.state, 'uploading');
  const ended = b.when((e, s) => s.id === 'b' && (e === 'success' || e === 'error'));
  const stored = await a.engine.done('a');
  const last = await withTimeout(ended, 60_000, () => new Error('the second tab did not end within 60 s'));
  assert.equal(last.state, 'done', JSON.stringify(last.error));
  assert.equal(last.inOtherTab, undefined, 'no longer following');
  assert.equal(md5(await download(service.url, stored.id)), md5(file.bytes));
  const own = await b.engine.done('b');
  assert.equal(own.id, stored.id, 'the same file');
  assert.deepEqual(await filesNamed(service.url, file.name), [{ id: stored.id }], 'stored once');
  assert.deepEqual(await store.list(), []);
});

test('a tab waiting behind another follower ends with the file the uploading tab’s message names, asking nothing', async () => {
  // Three tabs: A uploads; C, then B, follow it, C first in line for the session's lock. When A is done, C takes
  // the lock and asks the service where the upload stands; B, still waiting, learns the file from A's message.
  const locks = new MemoryLocks();
  const name = `test-${randomUUID()}`;
  const [channelA, channelB, channelC] = [broadcastChannel(name), broadcastChannel(name), broadcastChannel(name)];
  channels.push(channelA, channelB, channelC);
  const store = new MemorySessionStore();
  const tab = (channel: ChannelPort, http?: HttpPort) =>
    harness(service.url, { resumableThreshold: 0, chunkSize: 256 * KiB, store, locks, channel, ...(http && { http }) });
  const a = tab(channelA);
  const httpB = sessionRequests();
  const b = tab(channelB, httpB);
  const c = tab(channelC);
  await addFault(service.url, {
    match: { method: 'PUT', uploadType: 'resumable' },
    action: { type: 'delay', ms: 60 },
    times: 100,
  });
  const file = randomFile(2 * MiB + 1);
  await a.engine.add('a', file);
  await a.when((e, s) => e === 'progress' && s.bytesAcknowledged >= 256 * KiB);
  await c.engine.add('c', file);
  await c.when((_e, s) => s.inOtherTab === true);
  await b.engine.add('b', file);
  await b.when((_e, s) => s.inOtherTab === true);

  const [stored, seenByB, seenByC] = await Promise.all([a.engine.done('a'), b.engine.done('b'), c.engine.done('c')]);
  assert.equal(seenByB.id, stored.id);
  assert.equal(seenByC.id, stored.id);
  assert.deepEqual(httpB.sent, [], 'the tab told by the message sent nothing to the session');
  assert.equal(md5(await download(service.url, stored.id)), md5(file.bytes));
  assert.deepEqual(await filesNamed(service.url, file.name), [{ id: stored.id }]);
});

/** The real node:http port, recording every request it sends to a session (data PUTs and status queries). */
function sessionRequests(): HttpPort & { sent: string[] } {
  const sent: string[] = [];
  return {
    sent,
    send(request, hooks) {
      if (request.url.includes('upload_id=')) sent.push(`${request.method} ${request.headers['content-range'] ?? ''}`);
      return nodeHttp.send(request, hooks);
    },
  };
}
