// The MD5 of an upload hashed in the engine's own thread (engine/hashing/md5-tracker.ts), in a browser: a long hash
// lets the thread's waiting tasks run between its MiBs (a request's answer or progress, a page's call), even when the
// file's reads resolve at once, as microtasks, one after another.
import { expect } from '@open-wc/testing';
import { Md5Tracker } from '../../../src/uploader/engine/hashing/md5-tracker.ts';

const MiB = 1024 * 1024;
const PIECE = 256 * 1024;

/** `size` bytes whose stream gives each 256 KiB piece as soon as it is asked for: no read waits for a task. */
function immediateFile(size: number): Blob {
  const piece = new Uint8Array(PIECE);
  for (let at = 0; at < PIECE; at += 65536) crypto.getRandomValues(piece.subarray(at, at + 65536));
  return {
    size,
    slice: (start = 0) => ({
      stream: () => {
        let at = start;
        return new ReadableStream<Uint8Array>({
          pull(controller) {
            if (at >= size) {
              controller.close();
              return;
            }
            const n = Math.min(PIECE, size - at);
            controller.enqueue(piece.slice(0, n));
            at += n;
          },
        });
      },
      arrayBuffer: () => Promise.resolve(new ArrayBuffer(0)),
    }),
  } as unknown as Blob;
}

describe('Md5Tracker in a browser thread', () => {
  it('a task waiting for the thread runs while a long hash is under way, not after it', async () => {
    const scheduler = (globalThis as { scheduler?: { postTask?: unknown } }).scheduler;
    expect(typeof scheduler?.postTask, 'Chromium has scheduler.postTask').to.equal('function');
    const tracker = await Md5Tracker.open('auto');
    try {
      const size = 8 * MiB;
      let ran = false;
      void (scheduler as { postTask: (task: () => void, o: { priority: string }) => Promise<void> }).postTask(
        () => (ran = true),
        { priority: 'user-blocking' },
      );
      const ranBeforeEnd = await tracker.hashTo(immediateFile(size), size).then(() => ran);
      expect(tracker.bytesHashed).to.equal(size);
      expect(ranBeforeEnd, 'the waiting task ran before the hash ended').to.equal(true);
    } finally {
      tracker.close();
    }
  });

  // A request's progress and load events and a page's calls (comlink's messages) are tasks of the default priority,
  // which `scheduler.yield`'s continuations go before: yielding with it, a hash running ahead of the upload kept the
  // shared worker's progress still for 0.5–1 s at the start of a verified 1 GiB upload (bench, 2026-11-30).
  for (const [kind, queue] of [
    ['a timer', (task: () => void) => setTimeout(task, 0)],
    [
      'a message',
      (task: () => void) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          channel.port1.close();
          task();
        };
        channel.port2.postMessage(null);
      },
    ],
  ] as const) {
    it(`${kind} of the default priority runs within the first MiBs of a long hash, not after it`, async () => {
      const tracker = await Md5Tracker.open('auto');
      try {
        const size = 64 * MiB;
        let hashedWhenRan = -1;
        const hashed = tracker.hashTo(immediateFile(size), size);
        queue(() => (hashedWhenRan = tracker.bytesHashed));
        await hashed;
        expect(tracker.bytesHashed).to.equal(size);
        expect(hashedWhenRan, 'bytes hashed when the task ran').to.be.within(0, 4 * MiB);
      } finally {
        tracker.close();
      }
    });
  }
});
