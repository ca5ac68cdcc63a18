import { BLOCK_SIZE } from '../../protocol/blocks.ts';

/** Bounds of adaptive chunks: one block at least, 256 MiB at most (a lost chunk's resend, a slice's memory). */
const ADAPTIVE_MAX = 1024 * BLOCK_SIZE;
/** Before anything is measured: the first chunk at most, and the bandwidth guessed (40 Mbit/s) to size it. */
const FIRST_MAX = 64 * BLOCK_SIZE;
const GUESSED_BYTES_PER_MS = 5_000;
/** Before a round trip is measured (a resumed session: no session start seen): 1 MiB. */
const UNMEASURED_START = 4 * BLOCK_SIZE;
/** A chunk lasts at least this many round trips (its 308's round trip then costs ≤ 1.6 % of its transfer)… */
const ROUND_TRIPS_PER_CHUNK = 64;
/** …and at least this long, so a link with a tiny round trip still gets few requests. */
const ADAPTIVE_TARGET_MS = 3000;
/** One measurement may grow the chunk this much at most: a short chunk's timing is noisy. */
const MAX_GROWTH = 16;

const toBlocks = (bytes: number) => Math.min(ADAPTIVE_MAX, Math.max(1, Math.floor(bytes / BLOCK_SIZE)) * BLOCK_SIZE);

/**
 * Decides how many bytes the next resumable request carries: the rest of the file (the spec's preferred way), a
 * fixed chunk, or an adaptive chunk sized from the link: each chunk is stop-and-wait (the next one starts when its
 * 308 is back), so its round trip idles the link once per chunk, and the chunk is made long enough for that to cost
 * ≤ 2 % (≥ 64 round trips of transfer). The round trip is the session start's (an over-estimate when it opened the
 * connection: chunks then come out larger, never smaller); the bandwidth comes from each chunk's own timing, and
 * before the first is measured from a guess, bounded so a slow link's first chunk stays small. Every non-final
 * chunk is a whole number of 256 KiB blocks, as the spec requires.
 */
export class ChunkSizer {
  private size: number;
  private roundTripMs?: number;

  constructor(private readonly mode: number | 'adaptive' | undefined) {
    this.size = mode === 'adaptive' ? UNMEASURED_START : (mode ?? Infinity);
  }

  /** End (exclusive) of the next request starting at `offset` in a file of `total` bytes. */
  next(offset: number, total: number): number {
    // Adaptive: a tail shorter than a chunk rides with this one rather than costing a round trip of its own.
    const end = offset + this.size;
    if (this.mode === 'adaptive' && total - end < this.size) return total;
    return Math.min(total, end);
  }

  /** Adaptive mode: the session start took `ms` (one round trip, or a few when it opened the connection). */
  observeRoundTrip(ms: number): void {
    if (this.mode !== 'adaptive') return;
    this.roundTripMs = ms;
    this.size = Math.min(FIRST_MAX, toBlocks(GUESSED_BYTES_PER_MS * this.chunkMs()));
  }

  /** Adaptive mode: learn from a finished request of `bytes` that took `ms` (its transfer and one round trip). */
  record(bytes: number, ms: number): void {
    if (this.mode !== 'adaptive' || bytes < this.size) return;
    const rtt = this.roundTripMs ?? 0;
    // Bytes per ms of transfer: the request less its round trip, at least half of it (the round trip may be
    // over-estimated).
    this.size = toBlocks(Math.min(this.size * MAX_GROWTH, (bytes / Math.max(ms - rtt, ms / 2)) * this.chunkMs()));
  }

  /** Adaptive mode: a failed request halves the chunk so a flaky network wastes less. */
  shrink(): void {
    if (this.mode === 'adaptive') this.size = Math.max(BLOCK_SIZE, Math.floor(this.size / 2 / BLOCK_SIZE) * BLOCK_SIZE);
  }

  /** How long a chunk should take. */
  private chunkMs(): number {
    return Math.max(ADAPTIVE_TARGET_MS, ROUND_TRIPS_PER_CHUNK * (this.roundTripMs ?? 0));
  }
}
