// The hash's one forward read of a Blob: a byte stream is read into one buffer of the cursor's, handed back and forth
// (no ArrayBuffer per piece), and every byte comes out once and in order whatever the callers' limits; a stream
// without BYOB reads (a browser whose Blob stream is not a byte stream) is read the default way.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { FileCursor, StalledRead } from '../../src/uploader/engine/hashing/file-cursor.ts';

const MiB = 1024 * 1024;
const bytes = randomBytes(3 * MiB + 4321);

/** Reads `file` whole through `cursor` with `limit`s that cut across the stream's pieces; each piece checked at once. */
async function readAll(cursor: FileCursor, file: Blob, limits: number[]): Promise<number[]> {
  const buffers: number[] = [];
  for (let at = 0, i = 0; ; i++) {
    const piece = await cursor.next(file, at, limits[i % limits.length]);
    if (!piece) break;
    // Compared before the next call: a piece may be a view of the cursor's buffer, which the next read reuses.
    assert.ok(piece.byteLength > 0 && piece.byteLength <= limits[i % limits.length]);
    assert.ok(Buffer.from(piece).equals(bytes.subarray(at, at + piece.byteLength)), `bytes at ${at}`);
    buffers.push(piece.buffer.byteLength); // read now: the next read takes (detaches) a buffer it reuses
    at += piece.byteLength;
    if (at === bytes.length) assert.equal(await cursor.next(file, at, 1), undefined);
  }
  return buffers;
}

test('a byte stream is read into one reused buffer, every byte once and in order across odd limits', async () => {
  const cursor = new FileCursor(256 * 1024);
  const buffers = await readAll(cursor, new Blob([bytes]), [100_003, 7, 300_000, 65_536]);
  // Without BYOB reads each piece is a view of an ArrayBuffer the stream made for it (Node's are 64 KiB); with them,
  // of the cursor's own buffer, which goes back and forth (a transfer gives the same memory a new handle each time).
  assert.deepEqual(new Set(buffers), new Set([256 * 1024]), 'every piece is a view of the cursor-sized buffer');
  cursor.close();
});

test('a stream without BYOB reads is read the default way', async () => {
  const file = new Blob([bytes]);
  // The same bytes through a default (not byte) stream: getReader({ mode: 'byob' }) throws on it.
  const plain = {
    size: file.size,
    slice: (start?: number) => ({ stream: () => file.slice(start).stream().pipeThrough(new TransformStream()) }),
  } as unknown as Blob;
  const cursor = new FileCursor(256 * 1024);
  await readAll(cursor, plain, [1_000_000, 3]);
  cursor.close();
});

test('what fits one buffer is read at once from a slice, with no stream opened; a larger read still streams', async () => {
  const file = new Blob([bytes]);
  let streams = 0;
  const counted = {
    size: file.size,
    slice: (start?: number, end?: number) => {
      const part = file.slice(start, end);
      return { stream: () => (streams++, part.stream()), arrayBuffer: () => part.arrayBuffer() };
    },
  } as unknown as Blob;
  const cursor = new FileCursor(256 * 1024);
  // The last 100,000 bytes of the file (a small file's whole, or a rewind near its end), in two calls.
  const from = bytes.length - 100_000;
  const first = await cursor.next(counted, from, 60_000);
  assert.ok(first && Buffer.from(first).equals(bytes.subarray(from, from + 60_000)));
  const rest = await cursor.next(counted, from + 60_000, 1_000_000);
  assert.ok(rest && Buffer.from(rest).equals(bytes.subarray(from + 60_000)));
  assert.equal(await cursor.next(counted, bytes.length, 1), undefined);
  assert.equal(streams, 0, 'no stream for a read that fits the buffer');
  // From further back, the bytes come from one stream.
  const far = await cursor.next(counted, 0, 1000);
  assert.ok(far && Buffer.from(far).equals(bytes.subarray(0, 1000)));
  assert.equal(streams, 1);
  cursor.close();
});

test('a rewind or a jump on an open stream opens a new one at the asked offset, not where the stream stopped', async () => {
  const file = new Blob([bytes]);
  const cursor = new FileCursor(256 * 1024);
  const first = await cursor.next(file, 0, 1000);
  assert.ok(first && Buffer.from(first).equals(bytes.subarray(0, 1000)));
  // Back to the start (a retry re-hashes from a checkpoint): the same Blob, the stream open at 1000.
  const again = await cursor.next(file, 0, 500);
  assert.ok(again && Buffer.from(again).equals(bytes.subarray(0, 500)), 'a rewind reads from the asked offset');
  // Forward past bytes never handed out.
  const ahead = await cursor.next(file, MiB, 700);
  assert.ok(ahead && Buffer.from(ahead).equals(bytes.subarray(MiB, MiB + 700)), 'a jump reads from the asked offset');
  cursor.close();
});

test('what is left is exactly one buffer: it is read at once from a slice, whole, with no stream opened', async () => {
  const file = new Blob([bytes]);
  let streams = 0;
  const counted = {
    size: file.size,
    slice: (start?: number, end?: number) => {
      const part = file.slice(start, end);
      return { stream: () => (streams++, part.stream()), arrayBuffer: () => part.arrayBuffer() };
    },
  } as unknown as Blob;
  const cursor = new FileCursor(256 * 1024);
  const from = bytes.length - 256 * 1024;
  const rest = await cursor.next(counted, from, 1_000_000);
  assert.ok(rest && Buffer.from(rest).equals(bytes.subarray(from)), 'the whole rest in one piece');
  assert.equal(await cursor.next(counted, bytes.length, 1), undefined);
  assert.equal(streams, 0, 'no stream for a read of exactly one buffer');
  cursor.close();
});

test('a read that does not settle within its limit is given up: next rejects with StalledRead, the stream is cancelled, and the next call reads the bytes', async () => {
  const file = new Blob([bytes]);
  let cancelled = false;
  let held = false;
  // The first stream of the file never gives a byte (a file handle whose file went away), until it is cancelled.
  const holding = {
    size: file.size,
    slice: (start?: number, end?: number) => {
      const part = file.slice(start, end);
      if (held) return part;
      held = true;
      const stream = new ReadableStream({ type: 'bytes', cancel: () => void (cancelled = true) });
      return { stream: () => stream, arrayBuffer: () => part.arrayBuffer() };
    },
  } as unknown as Blob;
  const cursor = new FileCursor(256 * 1024, 200);
  await assert.rejects(cursor.next(holding, 0, 1000), StalledRead);
  assert.ok(held);
  assert.ok(cancelled, 'the held stream was cancelled');
  const again = await cursor.next(holding, 0, 1000);
  assert.ok(again && Buffer.from(again).equals(bytes.subarray(0, 1000)), 'read again from a new stream');
  cursor.close();
});
