import { FileCursor, StalledRead } from './file-cursor.ts';
import { createMd5 } from './choose-md5.ts';
import type { Md5Engine, Md5Preference } from './md5-engine.ts';
import type { HashTracker, SavedHash } from '../../contract/ports.ts';

/** How many bytes are hashed between two yields to the thread's other tasks (about 2 ms of MD5 here). */
const YIELD_BYTES = 1024 * 1024;

/**
 * Lets the thread's waiting tasks run, in a browser's thread (in Node, nothing: the engine's Node hosts hash in a
 * thread of their own). The hash's reads resolve as microtasks while the stream holds bytes, so without a yield a
 * hash in the engine's own thread runs until the stream's queue is empty. Chromium's shared worker has no nested
 * workers, so its MD5 runs in the thread that also handles each request's progress and `load` (issue 32: a 308
 * waited for the hash of the chunk ahead) and the page's calls. The yield is a message to itself, a task of the
 * default priority, queued behind the tasks already waiting: `scheduler.yield`'s continuation goes before them, and
 * with it a hash running ahead held a verified upload's progress still for up to a second.
 */
const yieldToTasks: (() => Promise<void>) | undefined = (() => {
  if (!('document' in globalThis || 'WorkerGlobalScope' in globalThis)) return undefined;
  const waiting: (() => void)[] = [];
  const channel = new MessageChannel();
  channel.port1.onmessage = () => waiting.shift()?.();
  return () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      channel.port2.postMessage(null);
    });
})();

/** Saved states are kept at these offsets (and at every request's end), so a rewind re-hashes at most this much. */
const CHECKPOINT_BYTES = 1024 * 1024;

/**
 * Incremental MD5 of an upload, run ahead of (or beside) the requests that send the same bytes.
 *
 * Calls are queued and run one after another, so the sender can ask for the next request's bytes before the
 * previous ones are hashed and never waits. The state is saved at each request's end and every MiB: the state at an
 * acknowledged offset is then usually ready when the session record is written, and when the service keeps fewer
 * bytes than were sent, a rewind reloads the nearest saved state and re-hashes only the gap.
 */
export class Md5Tracker implements HashTracker {
  /** Bytes [0, offset) are in the hash. */
  private offset = 0;
  private readonly checkpoints = new Map<number, SavedHash>();
  private tail: Promise<unknown> = Promise.resolve();
  /** Raised by `abort`: queued or running reads of an older generation stop. */
  private generation = 0;
  /** Set by `close`: a stalled read is no longer tried again. */
  private closed = false;
  /** Bytes read and hashed so far, rewinds included. */
  bytesHashed = 0;

  private constructor(
    private readonly md5: Md5Engine,
    /** The one stream the bytes come from, continued from call to call. */
    private readonly cursor: FileCursor,
  ) {}

  /**
   * A tracker at offset 0, or at `offset` from a saved state. A state of the other implementation (saved before the
   * page's CSP changed, say) cannot be loaded: the tracker starts at 0 and the next call re-hashes from the file.
   * A read of the file that takes over `readLimitMs` is given up and opened again (`FileCursor`).
   */
  static async open(
    preference: Md5Preference,
    saved?: SavedHash,
    offset = 0,
    readLimitMs?: number,
  ): Promise<Md5Tracker> {
    const md5 = await createMd5(preference);
    const tracker = new Md5Tracker(md5, new FileCursor(undefined, readLimitMs));
    if (saved && offset > 0 && saved.impl === md5.impl) {
      md5.load(saved);
      tracker.offset = offset;
    }
    tracker.checkpoints.set(tracker.offset, md5.save());
    return tracker;
  }

  /**
   * Hashes through `end` once its turn comes; the hash only ever goes forward here. Bytes already in it (hashed ahead
   * of their request, or sent again after the service kept less) are the same bytes of the same file and are not
   * read twice; after `stateAt` moved back for a session record, the nearest saved state at or below `end` is taken
   * up again rather than the gap re-read.
   */
  hashTo(file: Blob, end: number): Promise<void> {
    const generation = this.generation;
    return this.queue(async () => {
      if (generation !== this.generation || this.offset >= end) return;
      await this.seek(file, end, generation);
      if (this.offset === end) this.checkpoints.set(end, this.md5.save());
    });
  }

  stateAt(file: Blob, offset: number): Promise<SavedHash> {
    const ready = this.checkpoints.get(offset);
    if (ready) {
      this.prune(offset);
      return Promise.resolve(ready);
    }
    return this.queue(async () => {
      const later = this.checkpoints.get(offset);
      if (!later) {
        await this.seek(file, offset);
        this.checkpoints.set(offset, this.md5.save());
      }
      this.prune(offset);
      return this.checkpoints.get(offset)!;
    });
  }

  digest(file: Blob, offset: number): Promise<string> {
    return this.queue(async () => {
      await this.seek(file, offset);
      return this.md5.hex();
    });
  }

  abort(): void {
    this.generation++;
  }

  close(): void {
    this.closed = true;
    this.abort();
    this.checkpoints.clear();
    // After what is queued: a read still running finishes its current piece against a closed cursor otherwise.
    void this.queue(async () => this.cursor.close());
  }

  private queue<T>(work: () => Promise<T>): Promise<T> {
    const run = this.tail.then(work, work);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Moves to exactly `target`: from the nearest saved state at or below it when that is closer, then forward. */
  private async seek(file: Blob, target: number, generation?: number): Promise<void> {
    if (this.offset === target) return;
    let best = -1;
    for (const at of this.checkpoints.keys()) if (at <= target && at > best) best = at;
    if (this.offset > target || best > this.offset) {
      if (best < 0) {
        this.md5.init();
        this.offset = 0;
      } else {
        this.md5.load(this.checkpoints.get(best)!);
        this.offset = best;
      }
    }
    await this.read(file, target, generation);
  }

  /**
   * Hashes [offset, end) of `file`; stops early when `generation` is no longer current. The bytes come from one
   * stream continued across calls (`FileCursor`), not `arrayBuffer()` per piece: measured in Chromium, 256 MiB read
   * and hashed in 0.72 s through a stream against 1.12 s in 2 MiB `arrayBuffer()` reads.
   */
  private async read(file: Blob, end: number, generation?: number): Promise<void> {
    let sinceYield = 0;
    while (this.offset < end) {
      if (generation !== undefined && generation !== this.generation) return;
      let bytes: Uint8Array | undefined;
      try {
        bytes = await this.cursor.next(file, this.offset, end - this.offset);
      } catch (error) {
        // A read that stalled was given up: the next turn opens it again, until the tracker is closed.
        if (error instanceof StalledRead && !this.closed) continue;
        throw error;
      }
      if (!bytes) return;
      this.update(bytes);
      sinceYield += bytes.byteLength;
      if (yieldToTasks && sinceYield >= YIELD_BYTES) {
        sinceYield = 0;
        await yieldToTasks();
      }
    }
  }

  private update(bytes: Uint8Array): void {
    this.bytesHashed += bytes.length;
    let at = 0;
    while (at < bytes.length) {
      const boundary = (Math.floor(this.offset / CHECKPOINT_BYTES) + 1) * CHECKPOINT_BYTES;
      const take = Math.min(bytes.length - at, boundary - this.offset);
      this.md5.update(bytes.subarray(at, at + take));
      at += take;
      this.offset += take;
      if (this.offset === boundary) this.checkpoints.set(this.offset, this.md5.save());
    }
  }

  /** The service confirmed [0, offset): no rewind goes below it, older states can go. */
  private prune(offset: number): void {
    for (const at of [...this.checkpoints.keys()]) if (at < offset) this.checkpoints.delete(at);
  }
}
