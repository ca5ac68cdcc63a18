// createUploader outside a browser (Node here, as in server-side rendering): a clear UploadError, not a
// ReferenceError from deep inside; importing the public entry touches nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createUploader, UploadError } from '../../src/uploader/index.ts';

test('createUploader without Web Workers fails with an UploadError that says a browser is needed', () => {
  assert.equal(typeof (globalThis as { Worker?: unknown }).Worker, 'undefined');
  assert.throws(
    () => createUploader({ baseUrl: 'http://127.0.0.1:1', getAccessToken: () => 'token' }),
    (error: unknown) => {
      assert.ok(error instanceof UploadError, `got ${String(error)}`);
      assert.equal(error.code, 'bad-request');
      assert.match(error.message, /browser with Web Workers/);
      return true;
    },
  );
});
