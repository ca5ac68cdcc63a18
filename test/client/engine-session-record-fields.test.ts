// What a resumable upload's session record keeps for the next page life, and how long, against the real service over
// loopback: a resized image's original size and the file's relative path come back with the interrupted upload; a
// record is listed for the sessions' lifetime (SESSION_LIFETIME_MS, seven days) and dropped past it. And an uploader
// that does not verify (`verify: false`: no hasher) still uploads in chunks and stores the file whole.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { ClockPort, SessionRecord } from '../../src/uploader/contract/ports.ts';
import { systemClock } from '../../src/uploader/adapters/system-clock.ts';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { download, harness, md5, randomFile } from './helpers/engine-harness.ts';

const KiB = 1024;
const MiB = 1024 * KiB;
const DAY = 24 * 60 * 60 * 1000;

let service: ServiceHandle;
before(async () => {
  service = await startService();
});
after(async () => {
  await service.stop();
});

/** The wall clock moved on by `aheadMs` (a page life days later). */
function later(aheadMs: number): ClockPort {
  return { now: () => Date.now() + aheadMs, sleep: systemClock.sleep };
}

/** An upload interrupted after its first acknowledged chunk (its engine destroyed): the store that keeps it. */
async function interrupted(options: { relativePath?: string; originalSize?: number } = {}) {
  const first = harness(service.url, { resumableThreshold: 0, chunkSize: 256 * KiB, stallTimeoutMs: 60_000 });
  const file = randomFile(MiB);
  const { relativePath, originalSize } = options;
  await first.engine.add(
    'a',
    { ...file, ...(originalSize !== undefined && { originalSize, keepFile: true }) },
    relativePath === undefined ? {} : { relativePath },
  );
  await first.when((e, s) => e === 'progress' && s.bytesAcknowledged >= 256 * KiB);
  await first.engine.destroy();
  assert.equal((await first.store.list()).length, 1, 'the session is stored');
  return first.store;
}

test("an interrupted upload comes back with its relative path and the resized image's original size", async () => {
  const store = await interrupted({ relativePath: 'holiday/a.bin', originalSize: 5_000_000 });
  const second = harness(service.url, { resumableThreshold: 0, store });
  try {
    const listed = await second.engine.interrupted();
    assert.deepEqual(
      listed.map((u) => [u.id, u.relativePath]),
      [['a', 'holiday/a.bin']],
    );
    assert.equal((await second.engine.record('a'))?.originalSize, 5_000_000);
  } finally {
    await second.engine.destroy();
  }
});

test('an interrupted upload without a relative path or an original size lists neither', async () => {
  const store = await interrupted();
  const second = harness(service.url, { resumableThreshold: 0, store });
  try {
    const [listed] = await second.engine.interrupted();
    assert.equal(listed?.id, 'a');
    assert.ok(!('relativePath' in listed), JSON.stringify(listed));
    assert.equal((await second.engine.record('a'))?.originalSize, undefined);
  } finally {
    await second.engine.destroy();
  }
});

test('an interrupted upload is listed for the sessions’ lifetime (seven days), and dropped past it', async () => {
  const store = await interrupted();
  const sixDaysOn = harness(service.url, { resumableThreshold: 0, store, clock: later(6 * DAY) });
  try {
    assert.deepEqual(
      (await sixDaysOn.engine.interrupted()).map((u) => u.id),
      ['a'],
    );
  } finally {
    await sixDaysOn.engine.destroy();
  }
  const eightDaysOn = harness(service.url, { resumableThreshold: 0, store, clock: later(8 * DAY) });
  try {
    assert.deepEqual(await eightDaysOn.engine.interrupted(), []);
    assert.deepEqual(await store.list(), [], 'the expired record is deleted');
  } finally {
    await eightDaysOn.engine.destroy();
  }
});

test('an uploader that does not verify (no hasher) uploads a file in chunks and stores it whole', async () => {
  const h = harness(service.url, {
    verify: false,
    resumableThreshold: 0,
    chunkSize: 256 * KiB,
    stallTimeoutMs: 60_000,
  });
  try {
    const file = randomFile(MiB + 5);
    await h.engine.add('plain', file);
    const stored = await h.engine.done('plain');
    assert.equal(md5(await download(service.url, stored.id)), md5(file.bytes));
  } finally {
    await h.engine.destroy();
  }
});

test('a record whose hash state a store kept as null resumes, hashing from byte 0', async () => {
  const first = harness(service.url, { resumableThreshold: 0, chunkSize: 256 * KiB, stallTimeoutMs: 60_000 });
  const file = randomFile(MiB + 9);
  await first.engine.add('a', file);
  await first.when((e, s) => e === 'progress' && s.bytesAcknowledged >= 256 * KiB);
  await first.engine.destroy();
  const [record] = await first.store.list();
  assert.ok(record);
  await first.store.put({ ...record, hashState: null } as unknown as SessionRecord);

  const second = harness(service.url, {
    resumableThreshold: 0,
    chunkSize: 256 * KiB,
    stallTimeoutMs: 60_000,
    store: first.store,
  });
  try {
    const snap = await second.engine.add('b', file);
    assert.equal(snap.bytesAcknowledged, record.acknowledged, 'resumed where the service stood');
    const stored = await second.engine.done('b');
    assert.equal(stored.md5Checksum, md5(file.bytes));
    assert.equal(md5(await download(service.url, stored.id)), md5(file.bytes));
  } finally {
    await second.engine.destroy();
  }
});
