// Which failures the client's public isRetryable / isRateLimit call for a retry with backoff (spec §7).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isRateLimit, isRetryable } from '../../src/client/index.ts';

test('both usageLimits reasons of a 403 are rate limits to retry; other 403s and a 501 are final', () => {
  for (const reason of ['userRateLimitExceeded', 'rateLimitExceeded']) {
    assert.equal(isRateLimit(403, reason), true, reason);
    assert.equal(isRetryable(403, reason), true, reason);
    assert.equal(isRateLimit(429, reason), false, `429 ${reason}`);
  }
  for (const reason of [undefined, '', 'forbidden', 'storageQuotaExceeded'])
    assert.equal(isRetryable(403, reason), false, String(reason));
  assert.deepEqual(
    [429, 500, 502, 503, 504, 501, 400].map((s) => isRetryable(s)),
    [true, true, true, true, true, false, false],
  );
});
