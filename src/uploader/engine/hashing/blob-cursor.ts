/**
 * One forward read of a Blob that lasts across calls: the hash of a chunked upload takes each request's bytes from
 * the same stream instead of opening a stream per slice. Measured in Chromium (a worker reading 256 MiB): one stream
 * costs 0.5 CPU-seconds; a stream per 8 MiB slice 0.63, per 1 MiB slice (where adaptive chunks start) 1.0, and per
 * 256 KiB slice 1.65 — each stream is a round trip to the browser's blob store before its first byte.
 *
 * Runs wherever the tracker runs (the hash worker, or the upload worker when no hash worker can start).
 */
export class BlobCursor {
  private reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  /** Bytes read from the stream and not yet handed out. */
  private pending: Uint8Array | undefined;
  private size = -1;
  /** Offset in the Blob of the next byte `next` hands out. */
  private offset = -1;

  /**
   * Up to `limit` bytes of `source` from `offset`; `undefined` past its end. Continues the open stream when `offset`
   * is where it stopped; anything else (a rewind, another Blob) opens a new one. The Blob is compared by size, not
   * identity: a tracker hashes one upload's bytes, and its Blob arrives as a fresh copy with every call from the
   * upload worker.
   */
  async next(source: Blob, offset: number, limit: number): Promise<Uint8Array | undefined> {
    if (!this.reader || offset !== this.offset || source.size !== this.size) this.open(source, offset);
    if (!this.pending?.byteLength) {
      let read: ReadableStreamReadResult<Uint8Array>;
      try {
        read = await this.reader!.read();
      } catch (error) {
        // The file changed or went away: the next call starts a new read and meets the same answer.
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

  /** Ends the read (the tracker is closed, or the stream failed). */
  close(): void {
    this.reader?.cancel().catch(() => undefined);
    this.reader = undefined;
    this.pending = undefined;
  }

  private open(source: Blob, offset: number): void {
    this.close();
    this.reader = source.slice(offset).stream().getReader();
    this.size = source.size;
    this.offset = offset;
  }
}
