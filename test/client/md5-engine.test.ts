// A session record's saved MD5 state as `savedHashOf` reads it back (src/uploader/engine/hashing/md5-engine.ts): a
// record written before the implementation was named keeps a bare hash-wasm state (a Uint8Array); a page life that
// reads it resumes the hash from the record's offset instead of re-hashing the file from byte 0.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { savedHashOf } from '../../src/uploader/engine/hashing/md5-engine.ts';
import { Md5Tracker } from '../../src/uploader/engine/hashing/md5-tracker.ts';

const MiB = 1024 * 1024;
const bytes = randomBytes(3 * MiB + 77);
const blob = new Blob([bytes]);

test("an old record's bare hash-wasm state resumes the hash at its offset: the digest is Node's, the bytes before it are not read again", async () => {
  const first = await Md5Tracker.open('auto');
  const cut = MiB + 4096;
  await first.hashTo(blob, cut);
  const state = await first.stateAt(blob, cut);
  first.close();
  assert.equal(state.impl, 'wasm');
  // What an old record kept: the state alone, as structured clone gives it back.
  const bare = structuredClone((state as { state: Uint8Array }).state);
  assert.ok(bare instanceof Uint8Array);
  const saved = savedHashOf(bare);
  assert.deepEqual(saved, { impl: 'wasm', state: bare });

  const resumed = await Md5Tracker.open('auto', saved, cut);
  try {
    await resumed.hashTo(blob, bytes.length);
    assert.equal(await resumed.digest(blob, bytes.length), createHash('md5').update(bytes).digest('hex'));
    assert.equal(resumed.bytesHashed, bytes.length - cut, 'only the bytes after the saved offset were read');
  } finally {
    resumed.close();
  }
});
