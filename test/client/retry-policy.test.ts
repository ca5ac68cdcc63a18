// The retry rules of spec §7 as a table: each row is one failure and the decision the job must carry out.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decide, type Decision, type Failure } from '../../src/uploader/engine/retry-policy.ts';

const http = (status: number, extra: Partial<Extract<Failure, { kind: 'http' }>> = {}): Failure => ({
  kind: 'http',
  status,
  retryable: [500, 502, 503, 504].includes(status),
  rateLimit: false,
  online: true,
  authRetried: false,
  ...extra,
});

const rows: [string, Failure, Decision][] = [
  ['pause by the user', { kind: 'pause' }, { action: 'pause' }],
  ['cancel by the user', { kind: 'cancel' }, { action: 'cancel' }],
  ['the worker is going away', { kind: 'destroy' }, { action: 'stop' }],
  ['the browser went offline', { kind: 'offline' }, { action: 'wait-online' }],
  ['another tab holds the session', { kind: 'held-elsewhere' }, { action: 'follow-other-tab' }],
  ['404 on the session (expired)', { kind: 'session-expired' }, { action: 'new-session', cause: 'session-expired' }],
  ['no progress for stallTimeoutMs', { kind: 'stall' }, { action: 'back-off', cause: 'stall' }],
  ['network error while online', http(0), { action: 'back-off', cause: 'network' }],
  ['network error while offline', http(0, { online: false }), { action: 'wait-online' }],
  ['500', http(500), { action: 'back-off', cause: 'server-error' }],
  // An answer came: the network works whatever the browser says about being online.
  ['503 while reported offline', http(503, { online: false }), { action: 'back-off', cause: 'server-error' }],
  ['503', http(503), { action: 'back-off', cause: 'server-error' }],
  [
    '403 rate limit (retryable)',
    http(403, { retryable: true, rateLimit: true }),
    { action: 'back-off', cause: 'rate-limit' },
  ],
  ['429', http(429, { retryable: true, rateLimit: true }), { action: 'back-off', cause: 'rate-limit' }],
  ['first 401', http(401), { action: 'refresh-token' }],
  ['401 after a refresh', http(401, { authRetried: true }), { action: 'fail' }],
  ['403 forbidden', http(403), { action: 'fail' }],
  ['400', http(400), { action: 'fail' }],
  ['an integrity or other error', { kind: 'other' }, { action: 'fail' }],
];

for (const [name, failure, expected] of rows) {
  test(`retry policy: ${name}`, () => assert.deepEqual(decide(failure), expected));
}
