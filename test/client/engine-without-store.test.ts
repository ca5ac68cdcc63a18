// An engine with no session store (a page where IndexedDB is refused: the uploads run, nothing is kept for a next
// visit), in Node against the real service: a stored session asked for by id is simply not there, and a file still
// uploads (issue 39's survivor of engine/session-records.ts, the store read only when there is one); a session the
// service has let expire is started again, with no record to forget.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createStoreClient } from '../../src/client/index.ts';
import { ManualOnline } from '../../src/uploader/adapters/manual-online.ts';
import { MemoryLocks } from '../../src/uploader/adapters/memory-locks.ts';
import { systemClock } from '../../src/uploader/adapters/system-clock.ts';
import { resolveSettings } from '../../src/uploader/contract/settings.ts';
import { UploadEngine } from '../../src/uploader/engine/engine.ts';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import type { TaskSnapshot } from '../../src/uploader/contract/types.ts';
import type { JobEvent } from '../../src/uploader/engine/upload-job.ts';
import { advanceClock, download, filesNamed, md5, randomFile, TOKEN } from './helpers/engine-harness.ts';
import { nodeHttp } from './helpers/node-http-port.ts';

let service: ServiceHandle;
before(async () => {
  service = await startService();
});
after(async () => {
  await service.stop();
});

/** An engine without a session store; `onEvent` hears its tasks. */
function storelessEngine(onEvent: (event: JobEvent, snapshot: TaskSnapshot) => void = () => undefined): UploadEngine {
  return new UploadEngine({
    settings: resolveSettings({
      baseUrl: service.url,
      getAccessToken: () => TOKEN,
      resumableThreshold: 0,
      chunkSize: 256 * 1024,
      backoff: { baseMs: 20, capMs: 200 },
    }),
    io: {
      client: createStoreClient({ baseUrl: service.url, getAccessToken: () => TOKEN }),
      http: nodeHttp,
      online: new ManualOnline(true),
      clock: systemClock,
      store: undefined,
      locks: new MemoryLocks(),
    },
    onEvent,
  });
}

test('with no session store, a session asked for by id is not there, and a file still uploads', async () => {
  const engine = storelessEngine();
  try {
    assert.equal(await engine.record('no-such-session'), undefined);
    const file = randomFile(300 * 1024);
    await engine.add('t1', file);
    const stored = await engine.done('t1');
    assert.equal(md5(await download(service.url, stored.id)), md5(file.bytes));
  } finally {
    await engine.destroy();
  }
});

test('with no session store, an expired session (404) is started again from byte 0 and the file uploads', async () => {
  const heard: { event: JobEvent; snapshot: TaskSnapshot }[] = [];
  const waiting: { until: (s: TaskSnapshot) => boolean; resolve: () => void }[] = [];
  const engine = storelessEngine((event, snapshot) => {
    heard.push({ event, snapshot });
    for (const w of waiting.filter((w) => w.until(snapshot))) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve();
    }
  });
  const reached = (until: (s: TaskSnapshot) => boolean) =>
    new Promise<void>((resolve) => waiting.push({ until, resolve }));
  try {
    const file = randomFile(1024 * 1024);
    const acknowledged = reached((s) => s.bytesAcknowledged >= 256 * 1024);
    await engine.add('t2', file);
    await acknowledged;
    const paused = reached((s) => s.state === 'paused');
    engine.pause('t2');
    await paused;
    await advanceClock(service.url, 8 * 24 * 3600 * 1000);
    engine.resume('t2');
    const stored = await engine.done('t2');
    assert.ok(heard.some((e) => e.event === 'retry' && e.snapshot.retry?.cause === 'session-expired'));
    assert.equal(md5(await download(service.url, stored.id)), md5(file.bytes));
    assert.deepEqual(await filesNamed(service.url, file.name), [{ id: stored.id }]);
  } finally {
    await engine.destroy();
  }
});

test('with no session store, cancelling a running upload ends it: the task is cancelled and no file is made', async () => {
  let acknowledged!: () => void;
  const reached = new Promise<void>((resolve) => (acknowledged = resolve));
  const engine = storelessEngine((_event, snapshot) => {
    if (snapshot.bytesAcknowledged >= 256 * 1024) acknowledged();
  });
  try {
    const file = randomFile(1024 * 1024);
    await engine.add('t3', file);
    await reached;
    const done = engine.done('t3');
    await engine.cancel('t3');
    await assert.rejects(done, { code: 'cancelled' });
    assert.equal(engine.snapshots().find((s) => s.id === 't3')?.state, 'cancelled');
    assert.deepEqual(await filesNamed(service.url, file.name), []);
  } finally {
    await engine.destroy();
  }
});

test('with no session store, nothing is listed as interrupted', async () => {
  const engine = storelessEngine();
  try {
    assert.deepEqual(await engine.interrupted(), []);
  } finally {
    await engine.destroy();
  }
});
