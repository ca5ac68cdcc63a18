import { createMD5, type IHasher } from 'hash-wasm';
import type { ByteSource } from './ports.ts';

/** Saved hasher states are kept at these offsets, so a rewind to an acknowledged offset re-hashes at most this much. */
const CHECKPOINT_BYTES = 1024 * 1024;

/**
 * Incremental MD5 of the bytes sent, with the hasher state recorded at regular offsets.
 *
 * The hasher runs ahead of the network (it reads the same Blob slice the request sends). The service may keep fewer
 * bytes than were sent, so after a status query the tracker rewinds to the acknowledged offset: it reloads the
 * nearest saved state at or below it and re-hashes the gap from the source.
 */
export class Md5Tracker {
  /** Bytes [0, offset) are in the hash. */
  offset = 0;
  private readonly checkpoints = new Map<number, Uint8Array>();

  private constructor(private readonly hasher: IHasher) {}

  /** A tracker at offset 0, or at `offset` from a state saved with `save()`. */
  static async create(state?: Uint8Array, offset = 0): Promise<Md5Tracker> {
    const hasher = await createMD5();
    hasher.init();
    const tracker = new Md5Tracker(hasher);
    if (state && offset > 0) {
      hasher.load(state);
      tracker.offset = offset;
    }
    tracker.checkpoints.set(tracker.offset, hasher.save());
    return tracker;
  }

  /** The state covering [0, offset), to persist with an acknowledged offset. */
  save(): Uint8Array {
    return this.hasher.save();
  }

  /** Adds bytes at the current offset, saving a state at every checkpoint boundary crossed. */
  update(bytes: Uint8Array): void {
    let at = 0;
    while (at < bytes.length) {
      const boundary = (Math.floor(this.offset / CHECKPOINT_BYTES) + 1) * CHECKPOINT_BYTES;
      const take = Math.min(bytes.length - at, boundary - this.offset);
      this.hasher.update(bytes.subarray(at, at + take));
      at += take;
      this.offset += take;
      if (this.offset === boundary) this.checkpoints.set(this.offset, this.hasher.save());
    }
  }

  /** Reads `source` from the current offset up to `end` and hashes it; stops early when `signal` aborts. */
  async hashTo(source: ByteSource, end: number, signal?: AbortSignal): Promise<void> {
    if (end <= this.offset) return;
    const reader = source.slice(this.offset, end).stream().getReader();
    try {
      for (;;) {
        if (signal?.aborted) return;
        const { done, value } = await reader.read();
        if (done) return;
        this.update(value);
      }
    } finally {
      reader.releaseLock();
    }
  }

  /**
   * Moves to exactly `offset`: back to the nearest checkpoint at or below it, then forward by re-hashing from
   * `source`. Checkpoints above `offset` are dropped, those below the new offset kept.
   */
  async seek(offset: number, source: ByteSource): Promise<void> {
    if (offset !== this.offset) {
      let best = -1;
      for (const at of this.checkpoints.keys()) if (at <= offset && at > best) best = at;
      if (best < 0) {
        this.hasher.init();
        this.offset = 0;
      } else {
        this.hasher.load(this.checkpoints.get(best)!);
        this.offset = best;
      }
      await this.hashTo(source, offset);
    }
    for (const at of [...this.checkpoints.keys()]) if (at > offset) this.checkpoints.delete(at);
  }

  /** Forgets checkpoints below `offset`: the service has confirmed those bytes, no rewind will go there. */
  confirm(offset: number): void {
    if (this.offset === offset) this.checkpoints.set(offset, this.hasher.save());
    let keep = -1;
    for (const at of this.checkpoints.keys()) if (at <= offset && at > keep) keep = at;
    for (const at of [...this.checkpoints.keys()]) if (at < keep) this.checkpoints.delete(at);
  }

  /** Lower-case hex digest of [0, offset); the tracker can keep going afterwards. */
  hex(): string {
    const state = this.hasher.save();
    const digest = this.hasher.digest('hex');
    this.hasher.load(state);
    return digest;
  }
}
