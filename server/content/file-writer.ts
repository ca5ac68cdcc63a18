/** Streams bytes into an open file with few, pipelined syscalls (throughput matters for 1 GiB uploads). */
import type { FileHandle } from 'node:fs/promises';
import { BLOCK_SIZE } from 'store-upload-kit/protocol';
import { allowWrite } from '../storage-faults.ts';

/** Writes are issued whenever the data crosses a multiple of this (absolute file position). */
const FLUSH_EVERY = BLOCK_SIZE;
/** Most bytes queued behind an in-flight write before `push` waits. */
const MAX_QUEUED = 2 * 1024 * 1024;

/**
 * Positional writer: `push` queues chunks and starts a `writev` each time the queued data crosses a 256 KiB
 * boundary of the file, so every complete resumable block reaches the OS promptly and a kill -9 loses at most
 * the block in progress (plus what arrived during one write). While a write is in flight, chunks keep queuing
 * (writes grow with load) up to 2 MiB; then `push` waits, which is the backpressure on the socket.
 *
 * The writer owns its background writes: a failed write is kept and rethrown by the next `push`/`finish`, and
 * {@link settle} waits for the write in flight, so the owner never closes the handle under a pending write (which
 * failed with EBADF as an unhandled rejection and took the process down).
 */
export class FileWriter {
  readonly #fh: FileHandle;
  #position: number;
  /** End of the bytes the OS has taken (short writes included): what a failed write leaves on disk at most. */
  #written: number;
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  /** The write in flight; never rejects (its failure is kept in `#failure`). */
  #inFlight: Promise<void> = Promise.resolve();
  #busy = false;
  #failure: unknown;
  #failed = false;

  constructor(fh: FileHandle, position: number) {
    this.#fh = fh;
    this.#position = position;
    this.#written = position;
  }

  /**
   * File position up to which every byte has been written (the rest was queued, in flight, or failed). After a
   * failure the file may hold fewer bytes than pushed: an owner cuts back from here, never from {@link position}.
   */
  get written(): number {
    return this.#written;
  }

  /** File position after everything pushed so far. */
  get position(): number {
    return this.#position + this.#pendingBytes;
  }

  /** Queues a chunk (the caller must not reuse its memory). */
  async push(chunk: Uint8Array): Promise<void> {
    this.#throwIfFailed();
    if (chunk.length === 0) return;
    this.#pending.push(chunk);
    this.#pendingBytes += chunk.length;
    if (!this.#crossesBlock()) return;
    // While a write is in flight keep receiving (the next write gets bigger) unless too much is queued.
    if (this.#busy && this.#pendingBytes < MAX_QUEUED) return;
    await this.#flush();
  }

  #throwIfFailed(): void {
    if (this.#failed) throw this.#failure;
  }

  #crossesBlock(): boolean {
    const end = this.#position + this.#pendingBytes;
    return Math.floor(end / FLUSH_EVERY) > Math.floor(this.#position / FLUSH_EVERY);
  }

  async #flush(): Promise<void> {
    await this.#inFlight;
    this.#throwIfFailed();
    if (this.#pendingBytes === 0) return;
    const buffers = this.#pending;
    const at = this.#position;
    this.#position += this.#pendingBytes;
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#busy = true;
    this.#inFlight = writeAll(this.#fh, buffers, at, (end) => (this.#written = end)).then(
      () => {
        this.#busy = false;
        // Blocks that completed during the write go out now, even if no more data comes (a stalled client).
        if (this.#crossesBlock()) void this.#flush().catch(() => undefined);
      },
      (e: unknown) => {
        this.#busy = false;
        this.#failed = true;
        this.#failure = e;
      },
    );
  }

  /** Writes everything queued and waits for it; throws the first write failure. */
  async finish(): Promise<void> {
    await this.#flush();
    await this.#inFlight;
    this.#throwIfFailed();
  }

  /**
   * Waits for the write in flight and drops what is queued, without throwing: for an owner that is giving up
   * (cut body, malformed envelope) and is about to close the handle.
   */
  async settle(): Promise<void> {
    this.#pending = [];
    this.#pendingBytes = 0;
    await this.#inFlight;
  }
}

/** Writes `buffers` at `position`, reporting each write's end to `progress` (a full disk fails after a short one). */
async function writeAll(
  fh: FileHandle,
  buffers: Uint8Array[],
  position: number,
  progress: (end: number) => void,
): Promise<void> {
  let bufs = buffers;
  let at = position;
  // writev may write less than asked (ENOSPC comes on the next call); continue with what is left.
  while (bufs.length > 0) {
    // An injected storage fault (`--admin`) may allow fewer bytes, or fail the write, as a filling disk does.
    const total = bufs.reduce((n, b) => n + b.length, 0);
    const allowed = await allowWrite(total);
    const { bytesWritten } = await fh.writev(allowed < total ? prefix(bufs, allowed) : bufs, at);
    at += bytesWritten;
    progress(at);
    let skip = bytesWritten;
    const rest: Uint8Array[] = [];
    for (const b of bufs) {
      if (skip >= b.length) {
        skip -= b.length;
        continue;
      }
      rest.push(skip > 0 ? b.subarray(skip) : b);
      skip = 0;
    }
    bufs = rest;
  }
}

/** The first `length` bytes of `buffers`. */
function prefix(buffers: readonly Uint8Array[], length: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  let left = length;
  for (const b of buffers) {
    if (left <= 0) break;
    out.push(b.length <= left ? b : b.subarray(0, left));
    left -= b.length;
  }
  return out;
}
