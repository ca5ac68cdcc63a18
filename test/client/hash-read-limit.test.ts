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
import type { HasherPort, HashTracker } from '../../src/uploader/contract/ports.ts';
import { withTimeout } from '../../src/uploader/contract/with-timeout.ts';

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
      // The digest's limit is what its test waits out; where nothing may stall, one a request on a loaded machine
      // cannot reach (a request stalled for it would be a stall retry too).
      stallTimeoutMs: read === 'digest' ? 1000 : 5000,
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

/**
 * The bytes of `file` as a Blob whose first stream of the rest of the file (a slice with no end: how the hash reads;
 * the requests' bodies are slices with an end) never delivers a byte, as a stalled file handle would, until the
 * reader lets it go: `cancelled` says whether it did.
 */
function holdingFirstRead(bytes: Buffer): { file: Blob; held: () => boolean; cancelled: () => boolean } {
  let held = false;
  let cancelled = false;
  class Holding extends Blob {
    override slice(start?: number, end?: number, type?: string): Blob {
      const piece = super.slice(start, end, type);
      if (end !== undefined || held) return piece;
      held = true;
      const stream = new ReadableStream({ type: 'bytes', cancel: () => void (cancelled = true) });
      return Object.assign(piece, { stream: () => stream });
    }
  }
  return { file: new Holding([new Uint8Array(bytes)]), held: () => held, cancelled: () => cancelled };
}

// Resumable: the read held is the hash run ahead of the requests (`hashTo`); multipart: the digest's own read.
for (const kind of ['resumable', 'multipart'] as const)
  test(`${kind}: a read of the file held open is given up within half the stall limit and made again — the tracker's queue moves on, the digest needs no stall retry, and the file is stored whole`, async () => {
    let opened = 0;
    const real = lazyInThreadHasher();
    const h = harness(service.url, {
      hasher: { open: (saved, offset, limit) => (opened++, real.open(saved, offset, limit)) },
      // No stall retry may show: a limit no request on a loaded machine reaches (the held read is let go at half).
      stallTimeoutMs: 6000,
      resumableThreshold: kind === 'resumable' ? 0 : 64 * 1024 * KiB,
      chunkSize: 256 * KiB,
    });
    const file = randomFile(3 * 1024 * KiB + 5);
    const holding = holdingFirstRead(file.bytes);
    const taskId = randomUUID();
    await h.engine.add(taskId, { ...file, file: holding.file });
    const done = await withTimeout(
      h.when((e, s) => s.id === taskId && (e === 'success' || e === 'error')),
      60_000,
      () => new Error('the task did not end: a held read held it'),
    );
    assert.equal(done.state, 'done', JSON.stringify(done.error));
    assert.equal(md5(await download(service.url, done.file!.id)), md5(file.bytes));
    assert.ok(holding.held(), 'the hash read the file through the held stream');
    assert.ok(holding.cancelled(), 'the held read was given up (its stream cancelled)');
    const stalls = h.events.filter(({ event, snapshot }) => event === 'retry' && snapshot.retry?.cause === 'stall');
    assert.equal(stalls.length, 0, 'no stall retry: the tracker itself recovered');
    assert.equal(opened, 1, 'one tracker hashed the file');
  });
