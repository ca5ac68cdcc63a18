// An add the engine fails with a plain error (not an `UploadError`: a worker that dropped the call), through the page
// uploader in Node against the real service: the task fails with code `unknown` and the error's own message, and
// `done` rejects with it (issue 39's survivor of contract/upload-error.ts `errorInfoOf`).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UploadError } from '../../src/uploader/contract/upload-error.ts';
import { withTimeout } from '../../src/uploader/contract/with-timeout.ts';
import { pageSuite, seededFile } from './helpers/page-uploader.ts';

const suite = pageSuite();

test('an add the engine fails with a plain error fails the task with code unknown and that message', async () => {
  const p = suite.page();
  p.service.addMany = () => Promise.reject(new Error('the worker dropped the batch'));
  const task = p.uploader.add(seededFile(100, 41, 'dropped.bin'));
  await assert.rejects(
    withTimeout(task.done, 15_000, () => new Error('done never settled')),
    (e: unknown) => {
      assert.ok(e instanceof UploadError, String(e));
      assert.deepEqual([e.code, e.message], ['unknown', 'the worker dropped the batch']);
      return true;
    },
  );
  const error = await p.ever('error');
  assert.deepEqual(
    [error.id, error.state, error.error],
    [task.id, 'failed', { code: 'unknown', message: 'the worker dropped the batch' }],
  );
});
