// Every hash tracker an upload opens is closed once the file is stored, on both paths (resumable and multipart): a
// tracker holds a reader of the file and the MD5 state (in a hash worker, memory of that worker), so one left open
// per upload grows with every file of a long session. The engine's own in-thread hasher, counted through the hasher
// port; real service over loopback.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import type { HasherPort, HashTracker } from '../../src/uploader/contract/ports.ts';
import { lazyInThreadHasher } from '../../src/uploader/engine/hashing/lazy-hasher.ts';
import { download, harness, md5, randomFile } from './helpers/engine-harness.ts';

const KiB = 1024;

let service: ServiceHandle;
before(async () => {
  service = await startService();
});
after(async () => {
  await service.stop();
});

/** The in-thread hasher, with how many trackers it opened and how many of them were closed. */
function countedHasher(): HasherPort & { opened: number; closed: number } {
  const real = lazyInThreadHasher('js');
  const counts = { opened: 0, closed: 0 };
  return Object.assign(counts, {
    async open(...args: Parameters<HasherPort['open']>): Promise<HashTracker> {
      const tracker = await real.open(...args);
      counts.opened++;
      return {
        hashTo: (file, end) => tracker.hashTo(file, end),
        stateAt: (file, offset) => tracker.stateAt(file, offset),
        digest: (file, offset) => tracker.digest(file, offset),
        abort: () => tracker.abort(),
        close: () => {
          counts.closed++;
          tracker.close();
        },
      };
    },
  });
}

for (const [kind, resumableThreshold] of [
  ['resumable', 0],
  ['multipart', 10 * 1024 * KiB],
] as const) {
  test(`a ${kind} upload that is stored closes every hash tracker it opened`, async () => {
    const hasher = countedHasher();
    const h = harness(service.url, { hasher, resumableThreshold, chunkSize: 256 * KiB });
    const file = randomFile(600 * KiB + 5);
    await h.engine.add('t', file);
    const stored = await h.engine.done('t');
    assert.equal(md5(await download(service.url, stored.id)), md5(file.bytes));
    assert.ok(hasher.opened > 0, 'the upload was verified with a tracker');
    assert.equal(hasher.closed, hasher.opened);
  });
}
