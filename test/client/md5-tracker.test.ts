// The MD5 tracker over both implementations (hash-wasm and ts-md5): digests equal Node's, saved states resume,
// a state of the other implementation (or of spark-md5, the JavaScript MD5 before ts-md5) is dropped and the file
// re-hashed, the hash reads each byte once except where a session record needs a state behind it.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, openAsBlob, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { savedHashOf } from '../../src/uploader/engine/hashing/md5-engine.ts';
import { Md5Tracker } from '../../src/uploader/engine/hashing/md5-tracker.ts';
import { withTimeout } from '../../src/uploader/contract/with-timeout.ts';

const MiB = 1024 * 1024;
const bytes = randomBytes(5 * MiB + 123);
const blob = new Blob([bytes]);
const md5 = (b: Uint8Array) => createHash('md5').update(b).digest('hex');

for (const preference of ['auto', 'js'] as const) {
  test(`${preference}: chunks hashed ahead, states saved at acknowledged offsets, digest equals Node's`, async () => {
    const tracker = await Md5Tracker.open(preference);
    const cut = 768 * 1024;
    const queued = [tracker.hashTo(blob, cut), tracker.hashTo(blob, 3 * MiB)];
    const state = await tracker.stateAt(blob, cut);
    await Promise.all(queued);
    await tracker.hashTo(blob, bytes.length);
    assert.equal(await tracker.digest(blob, bytes.length), md5(bytes));
    assert.equal(tracker.bytesHashed, bytes.length);

    // A new page life from the state saved at `cut`, as its record keeps it (structured clone) and reads it back.
    const kept = savedHashOf(structuredClone(state));
    assert.deepEqual(kept, state);
    const resumed = await Md5Tracker.open(preference, kept, cut);
    await resumed.hashTo(blob, bytes.length);
    assert.equal(await resumed.digest(blob, bytes.length), md5(bytes));
    assert.equal(resumed.bytesHashed, bytes.length - cut);
  });
}

test('a state of the other implementation is dropped: the file is re-hashed from byte 0', async () => {
  const js = await Md5Tracker.open('js');
  await js.hashTo(blob, 2 * MiB);
  const jsState = await js.stateAt(blob, 2 * MiB);
  const wasm = await Md5Tracker.open('auto', jsState, 2 * MiB);
  await wasm.hashTo(blob, bytes.length);
  assert.equal(await wasm.digest(blob, bytes.length), md5(bytes));
  assert.equal(wasm.bytesHashed, bytes.length);
});

test('a spark-md5 state (the JavaScript MD5 before ts-md5) is dropped: the file is re-hashed from byte 0', async () => {
  const spark = { impl: 'js', state: { buff: 'x'.repeat(10), length: 2 * MiB - 10, hash: [1, 2, 3, 4] } };
  assert.equal(savedHashOf(spark), undefined);
  const tracker = await Md5Tracker.open('js', savedHashOf(spark), 2 * MiB);
  await tracker.hashTo(blob, bytes.length);
  assert.equal(await tracker.digest(blob, bytes.length), md5(bytes));
  assert.equal(tracker.bytesHashed, bytes.length);
});

test("the service kept less than was sent: only the record's state moves back, and the hash never reads a byte twice for it", async () => {
  const tracker = await Md5Tracker.open('auto');
  await tracker.hashTo(blob, 4 * MiB);
  // Asked again for bytes it has (a request hashed ahead of its turn): nothing is read.
  await tracker.hashTo(blob, 4 * MiB);
  assert.equal(tracker.bytesHashed, 4 * MiB);
  // The service kept 2.5 MiB of the 4 sent. The session record wants the state there: from the 2 MiB checkpoint.
  const kept = 2.5 * MiB;
  const state = await tracker.stateAt(blob, kept);
  assert.equal(tracker.bytesHashed, 4.5 * MiB);
  // The next request starts at 2.5 MiB: the hash takes up its 4 MiB checkpoint again and reads only what follows.
  await tracker.hashTo(blob, bytes.length);
  assert.equal(await tracker.digest(blob, bytes.length), md5(bytes));
  assert.equal(tracker.bytesHashed, 4.5 * MiB + (bytes.length - 4 * MiB));
  // The record's state is the hash of exactly the bytes the service kept.
  const resumed = await Md5Tracker.open('auto', state, kept);
  await resumed.hashTo(blob, bytes.length);
  assert.equal(await resumed.digest(blob, bytes.length), md5(bytes));
});

test('small chunks are hashed from one stream: a stream is opened again only where the hash has to move back', async () => {
  // Counts the reads the tracker opens: each is a `slice` of the Blob it is given (a copy per call, as from the
  // upload worker). A stream per 256 KiB chunk costs three times the CPU of one stream in Chromium.
  let opened = 0;
  const copy = () =>
    Object.assign(new Blob([bytes]), {
      slice(this: Blob, ...args: Parameters<Blob['slice']>) {
        opened++;
        return Blob.prototype.slice.apply(this, args);
      },
    });
  const tracker = await Md5Tracker.open('auto');
  const chunk = 256 * 1024;
  const sent: Promise<void>[] = [];
  for (let at = 0; at < 4 * MiB; at += chunk) sent.push(tracker.hashTo(copy(), at + chunk));
  await Promise.all(sent);
  assert.equal(opened, 1, 'a stream per chunk');
  // The service kept 3.25 MiB of the 4 sent: every chunk's end is a saved state, so the record's is there without a
  // read, and the next request's hash goes on from 4 MiB in the same stream.
  await tracker.stateAt(copy(), 3 * MiB + chunk);
  await tracker.hashTo(copy(), bytes.length);
  assert.equal(await tracker.digest(copy(), bytes.length), md5(bytes));
  assert.equal(opened, 1);
  assert.equal(tracker.bytesHashed, bytes.length);
  // A state between two saved ones is hashed from the one below, in a stream of its own.
  await tracker.stateAt(copy(), 3 * MiB + chunk + 64 * 1024);
  assert.equal(opened, 2);
  tracker.close();
});

test('close ends the open read: the stream the hash was reading is cancelled once what was queued has run', async () => {
  let cancelled = 0;
  // The Blob's bytes in 64 KiB pieces through a stream whose cancel is counted (a read left open holds the file).
  const counted = Object.assign(new Blob([bytes]), {
    slice(this: Blob, start = 0) {
      let at = start;
      return {
        stream: () =>
          new ReadableStream<Uint8Array>({
            pull(controller) {
              if (at < bytes.length) controller.enqueue(bytes.subarray(at, (at += 64 * 1024)));
              else controller.close();
            },
            cancel: () => {
              cancelled++;
            },
          }),
      } as Blob;
    },
  });
  const tracker = await Md5Tracker.open('auto');
  await tracker.hashTo(counted, 2 * MiB); // the stream stays open: 3 MiB are left in it
  assert.equal(cancelled, 0);
  tracker.close();
  await tracker.digest(counted, 0); // queued after the close, which it waits for (a digest at 0 reads nothing)
  assert.equal(cancelled, 1, 'the open read cancelled');
});

test('a file that can no longer be read fails the hash with the read error, not read again without end', async () => {
  // A Blob backed by a file on disk (as a picked File is) that changed after it was taken: reading it fails, and
  // unlike a stalled read nothing reading again would mend.
  const dir = mkdtempSync(join(tmpdir(), 'md5-tracker-unreadable-'));
  try {
    const path = join(dir, 'picked.bin');
    writeFileSync(path, bytes.subarray(0, MiB));
    const picked = await openAsBlob(path);
    writeFileSync(path, bytes.subarray(0, 2 * MiB));
    const tracker = await Md5Tracker.open('auto');
    await assert.rejects(
      withTimeout(tracker.hashTo(picked, picked.size), 30_000, () => new Error('the hash kept reading a broken file')),
      { name: 'NotReadableError' },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
