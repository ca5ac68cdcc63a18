// Every wait has a limit (issue 40): a read of the MD5 tracker that never settles — the resumable upload's final
// digest, the session writer's state at an acknowledged offset — turns into a stall the task retries, with a tracker
// opened anew, instead of a task left "uploading" for good. The hasher port of the engine is the real in-thread one,
// but its first tracker's reads hang (as a Blob stream read in Chromium's shared worker was once seen to); the real
// service stores the file, byte-identical.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { download, harness, md5, randomFile } from './helpers/engine-harness.ts';
import { lazyInThreadHasher } from '../../src/uploader/engine/hashing/lazy-hasher.ts';
import type { HasherPort, HashTracker } from '../../src/uploader/ports.ts';
import { withTimeout } from '../../src/uploader/with-timeout.ts';

const KiB = 1024;

let service: ServiceHandle;
before(async () => {
  service = await startService();
});
after(async () => {
  await service.stop();
});

/** The real hasher, whose first tracker's `read` never settles: its digest and its states hang. */
function hangingFirstTracker(read: 'digest' | 'stateAt'): { port: HasherPort; opened: () => number } {
  const real = lazyInThreadHasher();
  let opened = 0;
  return {
    opened: () => opened,
    port: {
      async open(saved, offset): Promise<HashTracker> {
        const tracker = await real.open(saved, offset);
        if (opened++ > 0) return tracker;
        return Object.assign(Object.create(tracker) as HashTracker, { [read]: () => new Promise(() => undefined) });
      },
    },
  };
}

for (const read of ['digest', 'stateAt'] as const)
  test(`a tracker's ${read} that never settles holds no task: ${read === 'digest' ? 'a stall, retried with a new tracker' : 'the record goes without it'}, and the file is stored whole`, async () => {
    const hasher = hangingFirstTracker(read);
    const h = harness(service.url, {
      hasher: hasher.port,
      stallTimeoutMs: 1000,
      resumableThreshold: 0,
      chunkSize: 256 * KiB,
    });
    const file = randomFile(700 * KiB);
    const taskId = randomUUID();
    await h.engine.add(taskId, file);
    const done = await withTimeout(
      h.when((e, s) => s.id === taskId && (e === 'success' || e === 'error')),
      60_000,
      () => new Error('the task did not end: a hung read held it'),
    );
    assert.equal(done.state, 'done', JSON.stringify(done.error));
    assert.equal(md5(await download(service.url, done.file!.id)), md5(file.bytes));
    const stalls = h.events.filter(({ event, snapshot }) => event === 'retry' && snapshot.retry?.cause === 'stall');
    if (read === 'digest') {
      assert.ok(stalls.length > 0, 'the hung digest showed as a stall retry');
      assert.ok(hasher.opened() >= 2, 'a new tracker after the stall');
    } else {
      // The record is written without that state (a resume then re-hashes): the upload never waits for it.
      assert.equal(stalls.length, 0, 'a record write does not hold the task');
    }
  });
