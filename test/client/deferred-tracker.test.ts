// The tracker a resumable upload uses while its hasher is still opening (src/uploader/engine/hashing/deferred-tracker.ts):
// every call made before the real tracker is there is answered by it once it is, in order — the state asked for a
// session record at an acknowledged offset included, which a later page life resumes the hash from.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { deferredTracker } from '../../src/uploader/engine/hashing/deferred-tracker.ts';
import { Md5Tracker } from '../../src/uploader/engine/hashing/md5-tracker.ts';

const MiB = 1024 * 1024;
const bytes = randomBytes(2 * MiB + 321);
const blob = new Blob([bytes]);
const md5 = createHash('md5').update(bytes).digest('hex');

test('calls made while the tracker opens are answered once it is: the state at an offset resumes to the same digest', async () => {
  let open!: (tracker: Md5Tracker) => void;
  const opening = new Promise<Md5Tracker>((resolve) => (open = resolve));
  const tracker = deferredTracker(opening);
  const cut = 700 * 1024;
  const hashed = tracker.hashTo(blob, cut);
  const state = tracker.stateAt(blob, cut);
  const digest = tracker.digest(blob, bytes.length);
  const real = await Md5Tracker.open('auto');
  open(real);
  await hashed;
  const saved = await state;
  assert.ok(saved && (saved.impl === 'wasm' || saved.impl === 'js'), 'a saved state, not nothing');
  assert.equal(await digest, md5);
  tracker.close();

  // A later page life resumes from that state: only the bytes after `cut` are read, and the digest is the same.
  const resumed = await Md5Tracker.open('auto', saved, cut);
  try {
    assert.equal(await resumed.digest(blob, bytes.length), md5);
    assert.equal(resumed.bytesHashed, bytes.length - cut);
  } finally {
    resumed.close();
  }
});
