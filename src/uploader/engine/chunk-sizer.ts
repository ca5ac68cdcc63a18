import { BLOCK_SIZE } from '../../protocol/blocks.ts';
import { validateChunkSize } from '../validate-options.ts';

/** Bounds of adaptive chunks: one block at least, 256 MiB at most. */
const ADAPTIVE_MAX = 1024 * BLOCK_SIZE;
/** Adaptive mode starts here and aims for requests of about this duration. */
const ADAPTIVE_START = 4 * BLOCK_SIZE;
const ADAPTIVE_TARGET_MS = 3000;

/**
 * Decides how many bytes the next resumable request carries: the rest of the file (the spec's preferred way), a
 * fixed chunk, or an adaptive chunk that grows or shrinks toward a target request duration. Every non-final chunk
 * is a whole number of 256 KiB blocks, as the spec requires.
 */
export class ChunkSizer {
  private size: number;

  constructor(private readonly mode: number | 'adaptive' | undefined, private readonly targetMs = ADAPTIVE_TARGET_MS) {
    if (typeof mode === 'number') validateChunkSize(mode);
    this.size = mode === 'adaptive' ? ADAPTIVE_START : (mode ?? Infinity);
  }

  /** End (exclusive) of the next request starting at `offset` in a file of `total` bytes. */
  next(offset: number, total: number): number {
    return Math.min(total, offset + this.size);
  }

  /** Adaptive mode: learn from a finished request of `bytes` that took `ms`. */
  record(bytes: number, ms: number): void {
    if (this.mode !== 'adaptive' || bytes < this.size || ms <= 0) return;
    const factor = Math.min(2, Math.max(0.5, this.targetMs / ms));
    const blocks = Math.floor((this.size * factor) / BLOCK_SIZE);
    this.size = Math.min(ADAPTIVE_MAX, Math.max(1, blocks) * BLOCK_SIZE);
  }

  /** Adaptive mode: a failed request halves the chunk so a flaky network wastes less. */
  shrink(): void {
    if (this.mode === 'adaptive') this.size = Math.max(BLOCK_SIZE, Math.floor(this.size / 2 / BLOCK_SIZE) * BLOCK_SIZE);
  }

  /** Current chunk size in bytes (Infinity for whole-file mode). */
  get current(): number {
    return this.size;
  }
}
