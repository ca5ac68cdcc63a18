/**
 * Received bytes held in memory until they are sent on as a part. They are copied out of the socket's chunks into
 * 1 MiB slabs that are reused: holding the socket's own 64 KiB buffers for the time a part takes to upload made
 * them outlive the young generation, and a 1 GiB upload grew the node by about 100 MiB of garbage waiting for a
 * full collection; one copy in memory keeps the RSS flat.
 */
const SLAB = 1024 * 1024;
/** Idle slabs kept for the next parts (the rest are left to the collector). */
const MAX_IDLE = 48;
const idle: Buffer[] = [];

interface Slab {
  readonly buf: Buffer;
  /** Holders: the queue while it still has bytes in it, and each part handed out that has not been released. */
  refs: number;
}

function acquire(): Slab {
  return { buf: idle.pop() ?? Buffer.allocUnsafeSlow(SLAB), refs: 1 };
}

function unref(slab: Slab): void {
  if (--slab.refs === 0 && idle.length < MAX_IDLE) idle.push(slab.buf);
}

/** Bytes taken from the queue: views of its slabs, valid until `release`. */
export interface Taken {
  readonly bytes: Uint8Array[];
  readonly length: number;
  /** Gives the slabs back (after the part is sent, or failed). */
  readonly release: () => void;
}

/** A FIFO of bytes in reusable slabs. */
export class ChunkQueue {
  /** Slabs holding queued bytes, the first from `#start`, the last up to `#end`. */
  #slabs: Slab[] = [];
  #start = 0;
  #end = SLAB;
  #length = 0;

  get length(): number {
    return this.#length;
  }

  /** Copies `chunk` in (the caller may reuse it). */
  push(chunk: Uint8Array): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.#end === SLAB) {
        this.#slabs.push(acquire());
        this.#end = 0;
        if (this.#slabs.length === 1) this.#start = 0;
      }
      const last = this.#slabs[this.#slabs.length - 1];
      const n = Math.min(chunk.length - at, SLAB - this.#end);
      last.buf.set(chunk.subarray(at, at + n), this.#end);
      this.#end += n;
      at += n;
    }
    this.#length += chunk.length;
  }

  /** Removes the first `n` bytes; they stay valid until the result is released. */
  take(n: number): Taken {
    const bytes: Uint8Array[] = [];
    const held: Slab[] = [];
    let left = Math.min(n, this.#length);
    const length = left;
    while (left > 0) {
      const slab = this.#slabs[0];
      const stop = this.#slabs.length === 1 ? this.#end : SLAB;
      if (this.#start === stop) {
        // A used-up first slab (left while it was the only one).
        this.#slabs.shift();
        unref(slab);
        this.#start = 0;
        continue;
      }
      const k = Math.min(left, stop - this.#start);
      bytes.push(slab.buf.subarray(this.#start, this.#start + k));
      slab.refs++;
      held.push(slab);
      this.#start += k;
      left -= k;
      if (this.#start === stop && this.#slabs.length > 1) {
        this.#slabs.shift();
        unref(slab);
        this.#start = 0;
      }
    }
    this.#length -= length;
    let released = false;
    return {
      bytes,
      length,
      release: () => {
        if (released) return;
        released = true;
        for (const s of held) unref(s);
      },
    };
  }

  /** Copies the first `n` bytes out (a tail that outlives the queue) and removes them. */
  takeCopy(n: number): Uint8Array[] {
    const taken = this.take(n);
    const copy = taken.length === 0 ? [] : [Buffer.concat(taken.bytes)];
    taken.release();
    return copy;
  }

  /** Gives every slab back; the queue is empty afterwards. */
  dispose(): void {
    for (const s of this.#slabs) unref(s);
    this.#slabs = [];
    this.#end = SLAB;
    this.#start = 0;
    this.#length = 0;
  }
}

/** Total bytes of `chunks`. */
export function byteLength(chunks: readonly Uint8Array[]): number {
  let n = 0;
  for (const c of chunks) n += c.length;
  return n;
}
