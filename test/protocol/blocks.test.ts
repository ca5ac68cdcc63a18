import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  BLOCK_SIZE,
  ceilToBlock,
  chunkSizeProblem,
  floorToBlock,
  normalizeChunkSize,
  planChunks,
} from '../../src/protocol/blocks.ts';

describe('blocks', () => {
  it('uses 256 KiB blocks', () => {
    assert.equal(BLOCK_SIZE, 262144);
    assert.equal(floorToBlock(BLOCK_SIZE * 2 + 5), BLOCK_SIZE * 2);
    assert.equal(floorToBlock(BLOCK_SIZE - 1), 0);
    assert.equal(ceilToBlock(1), BLOCK_SIZE);
    assert.equal(ceilToBlock(0), 0);
  });

  it('validates chunk sizes', () => {
    assert.equal(chunkSizeProblem(10, true), undefined);
    assert.equal(chunkSizeProblem(0, true), undefined);
    assert.equal(chunkSizeProblem(10, false), 'below-block');
    assert.equal(chunkSizeProblem(BLOCK_SIZE + 1, false), 'not-multiple');
    assert.equal(chunkSizeProblem(BLOCK_SIZE * 4, false), undefined);
    assert.equal(chunkSizeProblem(-1, true), 'not-positive');
    assert.equal(chunkSizeProblem(1.5, true), 'not-positive');
  });

  it('normalizes requested chunk sizes to whole blocks, at least one', () => {
    assert.equal(normalizeChunkSize(1), BLOCK_SIZE);
    assert.equal(normalizeChunkSize(BLOCK_SIZE * 3 + 7), BLOCK_SIZE * 3);
  });

  it('plans chunks from an offset, the last one final', () => {
    assert.deepEqual(planChunks(BLOCK_SIZE * 2 + 10, BLOCK_SIZE), [
      { start: 0, end: BLOCK_SIZE, isFinal: false },
      { start: BLOCK_SIZE, end: BLOCK_SIZE * 2, isFinal: false },
      { start: BLOCK_SIZE * 2, end: BLOCK_SIZE * 2 + 10, isFinal: true },
    ]);
    assert.deepEqual(planChunks(BLOCK_SIZE * 2, BLOCK_SIZE * 8, BLOCK_SIZE), [
      { start: BLOCK_SIZE, end: BLOCK_SIZE * 2, isFinal: true },
    ]);
    assert.deepEqual(planChunks(0, BLOCK_SIZE), [{ start: 0, end: 0, isFinal: true }]);
  });
});
