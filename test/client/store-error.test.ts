// The error a client call rejects with (client/store-error.ts): what it says for each kind of answer the service or
// something in front of it can give — the JSON error body, a body without a message, plain text, nothing, no answer.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StoreError } from '../../src/client/index.ts';
import { errorBody } from '../../src/protocol/errors.ts';

test('a JSON error body gives the message, the first reason and domain, and the body itself', () => {
  const body = errorBody(403, 'userRateLimitExceeded', 'User rate limit exceeded.');
  const error = StoreError.fromResponse(403, JSON.stringify(body));
  assert.equal(error.name, 'StoreError');
  assert.equal(error.status, 403);
  assert.equal(error.message, 'User rate limit exceeded.');
  assert.equal(error.reason, 'userRateLimitExceeded');
  assert.equal(error.domain, 'usageLimits');
  assert.deepEqual(error.body, body);
  assert.equal(error.retryable, true);
});

test('a JSON error body without a top message takes its first entry’s, then the status', () => {
  const entryOnly = {
    error: { code: 500, message: '', errors: [{ message: 'Backend down', domain: 'global', reason: 'backendError' }] },
  };
  const fromEntry = StoreError.fromResponse(500, JSON.stringify(entryOnly));
  assert.equal(fromEntry.message, 'Backend down');
  assert.equal(fromEntry.reason, 'backendError');
  const bare = StoreError.fromResponse(502, JSON.stringify({ error: { code: 502, message: '', errors: [] } }));
  assert.equal(bare.message, 'HTTP 502');
  assert.equal(bare.reason, undefined);
  assert.equal(bare.domain, undefined);
  assert.deepEqual(bare.body, { error: { code: 502, message: '', errors: [] } });
});

test('plain text is the message as sent, trimmed; no text is the status; JSON of another shape is text', () => {
  const text = StoreError.fromResponse(400, '  Failed to parse Content-Range header.\n');
  assert.equal(text.message, 'Failed to parse Content-Range header.');
  assert.equal(text.body, undefined);
  assert.equal(text.reason, undefined);
  assert.equal(StoreError.fromResponse(404, '').message, 'HTTP 404');
  assert.equal(StoreError.fromResponse(503, ' \n ').message, 'HTTP 503');
  // A gateway's JSON, and text that only starts like JSON, are read as text.
  assert.equal(StoreError.fromResponse(502, '{"message":"Bad gateway"}').message, '{"message":"Bad gateway"}');
  assert.equal(StoreError.fromResponse(502, '{not json').message, '{not json');
  // White space before the JSON does not hide it.
  const spaced = StoreError.fromResponse(500, `\n ${JSON.stringify(errorBody(500, 'backendError', 'Oops'))}`);
  assert.equal(spaced.message, 'Oops');
  assert.equal(spaced.reason, 'backendError');
});

test('a call with no answer is status 0, retryable by no rule of status, and names the request and the cause', () => {
  const error = StoreError.network('PUT', '/upload/x', new Error('socket hang up'));
  assert.equal(error.status, 0);
  assert.equal(error.message, 'Network error on PUT /upload/x: socket hang up');
  assert.equal(StoreError.network('GET', '/a', 'refused').message, 'Network error on GET /a: refused');
  assert.equal(error.retryable, false);
  assert.equal(new StoreError(429, 'slow down').retryable, true);
  assert.equal(new StoreError(403, 'quota', { reason: 'storageQuotaExceeded' }).retryable, false);
});
