import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backoffCeiling, backoffDelay, isRetryableStatus } from '../../src/protocol/backoff.ts';

describe('backoff', () => {
  it('doubles the ceiling per attempt up to the cap', () => {
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5, 6].map((a) => backoffCeiling(a)),
      [1000, 2000, 4000, 8000, 16000, 32000, 32000],
    );
    assert.equal(backoffCeiling(3, { baseMs: 100, capMs: 500 }), 500);
    assert.equal(backoffCeiling(1000), 32000);
  });

  it('applies full jitter from the injected random source', () => {
    assert.equal(backoffDelay(2, { random: () => 0 }), 0);
    assert.equal(backoffDelay(2, { random: () => 0.5 }), 2000);
    assert.equal(backoffDelay(2, { random: () => 0.999999 }), 3999);
  });

  it('retries 500, 502, 503, 504 only', () => {
    assert.deepEqual([500, 502, 503, 504].map(isRetryableStatus), [true, true, true, true]);
    assert.deepEqual([400, 403, 404, 308, 501].map(isRetryableStatus), [false, false, false, false, false]);
  });
});
