// retry() after a failure, through the worker facade: the failed attempt's `done` stays rejected, `task.done` is
// replaced by a pending promise for the retried attempt, and snapshot, events and promise agree at every step.
import { expect } from '@open-wc/testing';
import { createUploader } from '../../../src/uploader/index.ts';
import type { TaskSnapshot, Uploader, UploadError } from '../../../src/uploader/index.ts';
import { addFault, clearFaults, download, filesNamed, randomFile, sameBytes, serviceUrl, TOKEN } from './helpers.ts';

let baseUrl: string;
let u: Uploader | undefined;

before(async () => {
  baseUrl = await serviceUrl();
});
afterEach(async () => {
  u?.destroy();
  await clearFaults(baseUrl);
});

describe('retry()', () => {
  it('gives the retried attempt a new done that resolves, after the failed one rejected', async () => {
    u = createUploader({ baseUrl, getAccessToken: () => TOKEN, maxRetries: 0, backoff: { baseMs: 10, capMs: 50 } });
    const events: string[] = [];
    for (const type of ['start', 'error', 'success']) u.addEventListener(type, (e) => events.push(`${type}:${(e as CustomEvent<TaskSnapshot>).detail.state}`));
    await addFault(baseUrl, { match: { method: 'POST', uploadType: 'multipart' }, action: { type: 'status', status: 503 }, times: 1 });
    const file = randomFile(64 * 1024, 'text/plain');
    const task = u.add(file);
    const failed = task.done;
    const error = await failed.then(() => undefined, (e: UploadError) => e);
    expect(error?.code).to.equal('retries-exhausted');
    expect(error?.status).to.equal(503);
    expect(task.state).to.equal('failed');
    expect(task.snapshot.error?.code).to.equal('retries-exhausted');
    expect(events).to.deep.equal(['start:uploading', 'error:failed']);

    task.retry();
    expect(task.done).to.not.equal(failed);
    expect(task.state).to.equal('queued');
    expect(task.snapshot.error).to.equal(undefined);
    const stored = await task.done;
    expect(task.state).to.equal('done');
    expect(events.at(-1)).to.equal('success:done');
    expect(await failed.then(() => 'resolved', (e: UploadError) => e.code)).to.equal('retries-exhausted');
    expect(await sameBytes(file, await download(baseUrl, stored.id))).to.equal(true);
    expect(await filesNamed(baseUrl, file.name)).to.deep.equal([{ id: stored.id }]);
  });

  it('retry() on a task that has not failed keeps its done', async () => {
    u = createUploader({ baseUrl, getAccessToken: () => TOKEN });
    const task = u.add(randomFile(1024));
    const before = task.done;
    task.retry();
    expect(task.done).to.equal(before);
    await task.done;
  });
});
