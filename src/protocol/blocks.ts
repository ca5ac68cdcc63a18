/** 256 KiB block arithmetic of resumable uploads (spec §4.4, supplement §1). */

/** Every non-final chunk must be a multiple of this many bytes; the service keeps whole blocks only. */
export const BLOCK_SIZE = 256 * 1024;

/** The largest multiple of {@link BLOCK_SIZE} not above `n`. */
export function floorToBlock(n: number): number {
  return Math.floor(n / BLOCK_SIZE) * BLOCK_SIZE;
}

/** The smallest multiple of {@link BLOCK_SIZE} not below `n`. */
export function ceilToBlock(n: number): number {
  return Math.ceil(n / BLOCK_SIZE) * BLOCK_SIZE;
}

/** Why a chunk size is not acceptable; `undefined` when it is. */
export type ChunkSizeProblem = 'not-positive' | 'below-block' | 'not-multiple' | undefined;

/**
 * Checks a chunk size: a final chunk may have any size ≥ 0; a non-final one must be ≥ 256 KiB (smaller is
 * rejected by the service) and should be a multiple (otherwise only whole blocks are kept).
 */
export function chunkSizeProblem(size: number, isFinal: boolean): ChunkSizeProblem {
  if (!Number.isSafeInteger(size) || size < 0) return 'not-positive';
  if (isFinal) return undefined;
  if (size < BLOCK_SIZE) return 'below-block';
  if (size % BLOCK_SIZE !== 0) return 'not-multiple';
  return undefined;
}

/** A chunk size the client can use: at least one block, rounded down to whole blocks. */
export function normalizeChunkSize(requested: number): number {
  return Math.max(BLOCK_SIZE, floorToBlock(requested));
}

/** One request of a chunk plan: bytes `[start, end)` of the file. */
export interface PlannedChunk {
  readonly start: number;
  readonly end: number;
  readonly isFinal: boolean;
}

/**
 * Splits the bytes from `offset` to `total` into requests of `chunkSize` (normalized to whole blocks); the last
 * one carries the remainder. A zero-length remainder still yields one final (empty) chunk so the upload can finish.
 */
export function planChunks(total: number, chunkSize: number, offset = 0): PlannedChunk[] {
  const size = normalizeChunkSize(chunkSize);
  const chunks: PlannedChunk[] = [];
  let start = offset;
  do {
    const end = Math.min(total, start + size);
    chunks.push({ start, end, isFinal: end >= total });
    start = end;
  } while (start < total);
  return chunks;
}
