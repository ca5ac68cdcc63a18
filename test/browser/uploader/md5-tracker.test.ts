// The MD5 of an upload hashed in the engine's own thread (engine/hashing/md5-tracker.ts), where the browser has
// `scheduler.yield`: a long hash lets the thread's waiting tasks run between its MiBs (a request's answer, a page's
// call), even when the file's reads resolve at once, as microtasks, one after another.
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

describe('Md5Tracker in a thread with scheduler.yield', () => {
  it('a task waiting for the thread runs while a long hash is under way, not after it', async () => {
    const scheduler = (globalThis as { scheduler?: { postTask?: unknown; yield?: unknown } }).scheduler;
    expect(typeof scheduler?.yield, 'Chromium has scheduler.yield').to.equal('function');
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
});
