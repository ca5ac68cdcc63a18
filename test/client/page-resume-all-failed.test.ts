// `resumeAll()` continues paused tasks only: a task that failed stays failed until its own `retry()`, also when it was
// added by this page (uploader/page/add-batch.ts: once the engine has answered for an add, the page's commands for
// that task go to the engine as any other's, not as held commands of an add on its way, which would try it again).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addFault, filesNamed } from './helpers/engine-harness.ts';
import { pageSuite } from './helpers/page-uploader.ts';
import { UploadError } from '../../src/uploader/contract/upload-error.ts';

const suite = pageSuite();

test('resumeAll() leaves a failed task failed and stores nothing of it; its retry() stores it', async () => {
  // The service fails the session's creation once, and the task may not retry: it fails.
  const p = suite.page({ maxRetries: 0 });
  await addFault(suite.service.url, {
    match: { method: 'POST', uploadType: 'resumable' },
    action: { type: 'status', status: 503 },
    times: 1,
  });
  const name = `failed-${crypto.randomUUID()}.txt`;
  const failed = p.uploader.add(new File(['failed once'], name, { type: 'text/plain' }));
  await assert.rejects(failed.done, (e: unknown) => e instanceof UploadError && e.code === 'retries-exhausted');
  assert.equal(failed.state, 'failed');

  p.uploader.resumeAll();
  // A later upload through the same engine: by its end, a retry resumeAll had started would have left `failed`.
  const later = p.uploader.add(new File(['after resumeAll'], `later-${crypto.randomUUID()}.txt`));
  await later.done;
  assert.equal(failed.state, 'failed', 'resumeAll did not try the failed task again');
  assert.deepEqual(await filesNamed(suite.service.url, name), []);

  failed.retry();
  await failed.done;
  assert.equal((await filesNamed(suite.service.url, name)).length, 1);
});
