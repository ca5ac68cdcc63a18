/** The task error code an upload ends with for each final service answer (engine/error-code.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StoreError } from '../../src/client/index.ts';
import { errorCodeOf } from '../../src/uploader/engine/error-code.ts';

test('a 400 is "conversion" only for a converting upload whose message speaks of conversion', () => {
  const conversion = new StoreError(400, 'The file could not be Converted to the native kind.');
  const plain = new StoreError(400, 'Invalid value for uploadType.');
  assert.equal(errorCodeOf(conversion, true), 'conversion');
  assert.equal(errorCodeOf(conversion, false), 'bad-request', 'not converting: a plain bad request');
  assert.equal(errorCodeOf(plain, true), 'bad-request', 'converting, but the message names something else');
  assert.equal(errorCodeOf(plain, false), 'bad-request');
});

test('413 is "too-large"; a status with no code of its own is "unknown"', () => {
  assert.equal(errorCodeOf(new StoreError(413, 'Request entity too large'), false), 'too-large');
  assert.equal(errorCodeOf(new StoreError(413, 'conversion too large'), true), 'too-large');
  assert.equal(errorCodeOf(new StoreError(409, 'conflict'), false), 'unknown');
  assert.equal(errorCodeOf(new StoreError(500, 'conversion failed'), true), 'unknown');
  assert.equal(errorCodeOf(new StoreError(401, 'x'), false), 'auth');
  assert.equal(errorCodeOf(new StoreError(404, 'x'), false), 'not-found');
  assert.equal(errorCodeOf(new StoreError(403, 'x', { reason: 'storageQuotaExceeded' }), false), 'quota-exceeded');
  assert.equal(errorCodeOf(new StoreError(403, 'x'), false), 'forbidden');
});
