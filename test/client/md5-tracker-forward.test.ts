// The MD5 tracker's hash only goes forward for `hashTo` (src/uploader/engine/hashing/md5-tracker.ts): a request whose
// end it has already passed (an earlier request answered late, or one hashed ahead) reads nothing, and the digest is
// Node's. Moving back is `stateAt`'s alone (for a session record).
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { Md5Tracker } from '../../src/uploader/engine/hashing/md5-tracker.ts';

const MiB = 1024 * 1024;
const bytes = randomBytes(5 * MiB);
const blob = new Blob([bytes]);

test('hashTo an end the hash has passed reads nothing and moves nothing back', async () => {
  const tracker = await Md5Tracker.open('auto');
  try {
    await tracker.hashTo(blob, 4 * MiB);
    // Between two saved states, as a request end can be.
    await tracker.hashTo(blob, 2 * MiB + 12_345);
    assert.equal(tracker.bytesHashed, 4 * MiB);
    await tracker.hashTo(blob, bytes.length);
    assert.equal(tracker.bytesHashed, bytes.length);
    assert.equal(await tracker.digest(blob, bytes.length), createHash('md5').update(bytes).digest('hex'));
  } finally {
    tracker.close();
  }
});
