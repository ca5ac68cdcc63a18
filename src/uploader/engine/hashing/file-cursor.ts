/** A read of the file that did not settle within its limit; it was given up. */
export class StalledRead extends Error {}

/**
 * One forward read of a Blob that lasts across calls: the hash of a chunked upload takes each request's bytes from
 * the same stream instead of opening a stream per slice. Measured in Chromium (a worker reading 256 MiB): one stream
 * costs 0.5 CPU-seconds; a stream per 8 MiB slice 0.63, per 1 MiB slice (where adaptive chunks start) 1.0, and per
 * 256 KiB slice 1.65 — each stream is a round trip to the browser's blob store before its first byte.
 *
 * The stream is read into one buffer of this cursor's, handed back and forth (a BYOB reader), where the browser gives
 * it: a default reader makes a new ArrayBuffer for every piece, and that allocation and its garbage cost the worker
 * as much as MD5 itself (bench `hash`, issue 32: 256 MiB read and hashed at ~300 MB/s of the worker's CPU with a
 * default reader, ~425 MB/s with one 1 MiB buffer; all of Chromium's CPU per GiB 4.4 → 3.3 for a Blob in memory).
 *
 * Runs wherever the tracker runs (the hash worker, or the upload worker when no hash worker can start).
 *
 * Every read has a limit (`readLimitMs`): a file handle whose file went away, or a Blob stream read that was seen
 * never to settle in Chromium's shared worker, is released (the stream cancelled) and `next` rejects with
 * `StalledRead`, so the tracker's queue moves on and its next call opens the read again.
 */
export class FileCursor {
  private reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  /** The same reader when the stream lends itself to reads into a buffer of ours. */
  private byob: ReadableStreamBYOBReader | undefined;
  /** The BYOB reader's buffer between reads (detached while a read holds it). */
  private buffer: ArrayBuffer | undefined;
  /** Bytes read from the stream and not yet handed out. */
  private pending: Uint8Array | undefined;
  private size = -1;
  /** Offset in the Blob of the next byte `next` hands out. */
  private offset = -1;

  /**
   * @param bufferBytes the BYOB reader's buffer: a piece handed out is a view of it, valid until the next call.
   * @param readLimitMs how long one read may take before it is given up (none when absent).
   */
  constructor(
    private readonly bufferBytes = 1024 * 1024,
    private readonly readLimitMs?: number,
  ) {}

  /**
   * Up to `limit` bytes of `file` from `offset`; `undefined` past its end. Continues the open stream when `offset`
   * is where it stopped; anything else (a rewind, another Blob) opens a new one. The Blob is compared by size, not
   * identity: a tracker hashes one upload's bytes, and its Blob arrives as a fresh copy with every call from the
   * upload worker. The bytes returned may be a view of the cursor's own buffer: use them before the next call.
   */
  async next(file: Blob, offset: number, limit: number): Promise<Uint8Array | undefined> {
    if (!(this.byob ?? this.reader) || offset !== this.offset || file.size !== this.size) {
      // What is left fits one buffer (a small file, or a rewind near the end): read at once, with no stream to open.
      // A stream costs a round trip to the blob store before its first byte, and in Chromium's shared worker, among
      // thousands of small files, a small Blob's stream read was seen never to settle (large-list.test.ts).
      if (file.size - offset <= this.bufferBytes) return this.slice(file, offset, limit);
      this.open(file, offset);
    }
    if (!this.pending?.byteLength) {
      let read: ReadableStreamReadResult<Uint8Array>;
      try {
        read = await this.bounded(this.read());
      } catch (error) {
        // The file changed or went away, or the read stalled: the next call starts a new read.
        this.close();
        throw error;
      }
      if (read.done) {
        this.close();
        return undefined;
      }
      this.pending = read.value;
    }
    const bytes = this.pending;
    const piece = bytes.byteLength <= limit ? bytes : bytes.subarray(0, limit);
    this.pending = piece === bytes ? undefined : bytes.subarray(limit);
    this.offset += piece.byteLength;
    return piece;
  }

  /** Up to `limit` bytes from `offset`, read from a slice of the Blob; `undefined` past its end. */
  private async slice(file: Blob, offset: number, limit: number): Promise<Uint8Array | undefined> {
    this.close();
    const end = Math.min(file.size, offset + limit);
    if (end <= offset) return undefined;
    return new Uint8Array(await this.bounded(file.slice(offset, end).arrayBuffer()));
  }

  /**
   * `read`, or a `StalledRead` once the limit has passed. Not `withTimeout`: the upload worker's own module, which
   * this chunk (loaded on demand, in the hash worker or the upload worker) would split out of its bundle.
   */
  private bounded<T>(read: Promise<T>): Promise<T> {
    const limit = this.readLimitMs;
    if (!limit) return read;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stalled = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new StalledRead()), limit)));
    return Promise.race([read, stalled]).finally(() => clearTimeout(timer));
  }

  /** Ends the read (the tracker is closed, or the stream failed). */
  close(): void {
    (this.byob ?? this.reader)?.cancel().catch(() => undefined);
    this.reader = undefined;
    this.byob = undefined;
    this.pending = undefined;
  }

  private async read(): Promise<ReadableStreamReadResult<Uint8Array>> {
    if (!this.byob) return this.reader!.read();
    // The buffer goes to the stream and comes back in the answer's view (transferred, not copied).
    const buffer = this.buffer ?? new ArrayBuffer(this.bufferBytes);
    this.buffer = undefined;
    const read = await this.byob.read(new Uint8Array(buffer));
    if (read.value) this.buffer = read.value.buffer;
    return read;
  }

  private open(file: Blob, offset: number): void {
    this.close();
    const stream = file.slice(offset).stream();
    try {
      // A Blob's stream is a byte stream by the File API; where a browser's is not, getReader refuses BYOB.
      this.byob = stream.getReader({ mode: 'byob' });
    } catch {
      this.reader = stream.getReader();
    }
    this.size = file.size;
    this.offset = offset;
  }
}
