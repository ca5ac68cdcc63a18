// Two uploaders in one page are two module workers: as far as Web Locks and BroadcastChannel go, two tabs of one
// origin. Only one of them may upload a session; the other follows its progress and ends with its file.
import { expect } from '@open-wc/testing';
import type { TaskSnapshot } from '../../../src/uploader/index.ts';
import {
  addFault,
  baseUrl,
  download,
  eventually,
  filesNamed,
  nextEvent,
  randomFile,
  sameBytes,
  storedRecords,
  testUploaders,
} from './helpers.ts';

const KiB = 1024;
const MiB = 1024 * KiB;
const LOCK_PREFIX = 'store-upload-kit:session:';

/** Each uploader a tab of its own, as far as locks and channels go. */
// Two tabs of one page life each: dedicated workers, as in browsers without shared workers.
const tab = testUploaders({
  host: 'dedicated',
  chunkSize: 256 * KiB,
  resumableThreshold: 0,
  backoff: { baseMs: 20, capMs: 200 },
});

describe('two tabs, one session', () => {
  it('the second tab waits on the session lock, mirrors the first tab’s progress and ends with its file', async () => {
    await addFault(baseUrl, {
      match: { method: 'PUT', uploadType: 'resumable' },
      action: { type: 'delay', ms: 80 },
      times: 100,
    });
    const first = tab();
    const second = tab();
    const file = randomFile(2 * MiB + 11);
    const uploading = first.add(file);
    await nextEvent<TaskSnapshot>(first, 'progress', (s) => s.bytesAcknowledged >= 256 * KiB);
    expect((await second.interrupted()).map((u) => u.name)).to.not.include(file.name);

    const following = second.add(file);
    const mirrored = await nextEvent<TaskSnapshot>(
      second,
      'progress',
      (s) => s.inOtherTab === true && s.bytesAcknowledged >= 512 * KiB,
    );
    expect(mirrored.state).to.equal('uploading');
    // One holder of the session's lock (the first tab's worker), one waiter (the second's).
    const state = await navigator.locks.query();
    const held = (state.held ?? []).filter((l) => l.name?.startsWith(LOCK_PREFIX));
    const pending = (state.pending ?? []).filter((l) => l.name?.startsWith(LOCK_PREFIX));
    expect(held.length).to.equal(1);
    expect(pending.map((l) => l.name)).to.deep.equal([held[0].name]);

    const [stored, seen] = await Promise.all([uploading.done, following.done]);
    expect(seen.id).to.equal(stored.id);
    expect(following.state).to.equal('done');
    expect(await sameBytes(file, await download(baseUrl, stored.id))).to.equal(true);
    expect(await filesNamed(baseUrl, file.name)).to.deep.equal([{ id: stored.id }]);
    await eventually(async () => (await storedRecords()).every((r) => r.name !== file.name), 'no record left');
  });
});
