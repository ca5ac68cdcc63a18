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
    for (const type of ['start', 'error', 'success'])
      u.addEventListener(type, (e) => events.push(`${type}:${(e as CustomEvent<TaskSnapshot>).detail.state}`));
    await addFault(baseUrl, {
      match: { method: 'POST', uploadType: 'multipart' },
      action: { type: 'status', status: 503 },
      times: 1,
    });
    const file = randomFile(64 * 1024, 'text/plain');
    const task = u.add(file);
    const failed = task.done;
    const error = await failed.then(
      () => undefined,
      (e: UploadError) => e,
    );
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
    expect(
      await failed.then(
        () => 'resolved',
        (e: UploadError) => e.code,
      ),
    ).to.equal('retries-exhausted');
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

describe('bulk actions', () => {
  it('retryFailed() tries every failed task again with a fresh done; the others are left alone', async () => {
    u = createUploader({
      baseUrl,
      getAccessToken: () => TOKEN,
      maxRetries: 0,
      concurrency: 1,
      backoff: { baseMs: 10, capMs: 50 },
    });
    await addFault(baseUrl, {
      match: { method: 'POST', uploadType: 'multipart' },
      action: { type: 'status', status: 503 },
      times: 2,
    });
    const files = [
      randomFile(20 * 1024, 'text/plain'),
      randomFile(30 * 1024, 'text/plain'),
      randomFile(40 * 1024, 'text/plain'),
    ];
    const tasks = files.map((f) => u!.add(f));
    const outcomes = await Promise.all(
      tasks.map((t) =>
        t.done.then(
          () => 'done',
          (e: UploadError) => e.code,
        ),
      ),
    );
    expect(outcomes).to.deep.equal(['retries-exhausted', 'retries-exhausted', 'done']);
    const finished = tasks[2].done;

    u.retryFailed();
    expect(tasks.map((t) => t.state)).to.deep.equal(['queued', 'queued', 'done']);
    const stored = await Promise.all(tasks.map((t) => t.done));
    expect(tasks[2].done).to.equal(finished);
    for (const [i, file] of files.entries())
      expect(await sameBytes(file, await download(baseUrl, stored[i].id))).to.equal(true);
    for (const file of files) expect((await filesNamed(baseUrl, file.name)).length).to.equal(1);
  });

  it('cancelAll() cancels every unfinished task, stores nothing for them, and keeps what was done', async () => {
    u = createUploader({
      baseUrl,
      getAccessToken: () => TOKEN,
      concurrency: 1,
      chunkSize: 256 * 1024,
      resumableThreshold: 0,
    });
    const first = randomFile(10 * 1024, 'text/plain');
    const done = await u.add(first).done;
    await addFault(baseUrl, {
      match: { method: 'PUT', uploadType: 'resumable' },
      action: { type: 'delay', ms: 200 },
      times: 1000,
    });
    const files = [randomFile(1024 * 1024), randomFile(1024 * 1024)];
    const tasks = files.map((f) => u!.add(f));
    u.cancelAll();
    const codes = await Promise.all(
      tasks.map((t) =>
        t.done.then(
          () => 'done',
          (e: UploadError) => e.code,
        ),
      ),
    );
    expect(codes).to.deep.equal(['cancelled', 'cancelled']);
    expect(tasks.map((t) => t.state)).to.deep.equal(['cancelled', 'cancelled']);
    for (const file of files) expect(await filesNamed(baseUrl, file.name)).to.deep.equal([]);
    expect(await filesNamed(baseUrl, first.name)).to.deep.equal([{ id: done.id }]);
  });
});
