// The page uploader (`createUploader`, src/uploader/page/) as an app sees it, in Node: its engine is an in-process
// worker service (the `service` option) against the real reference service. Tasks listed at once and moved by the
// engine's events, one `change` per batch, the bytes stored byte for byte, and each task's commands.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addFault, download, filesNamed } from './helpers/engine-harness.ts';
import { pageSuite, seededFile } from './helpers/page-uploader.ts';
import { UploadError } from '../../src/uploader/contract/upload-error.ts';

const KiB = 1024;

const suite = pageSuite();
const { page } = suite;

const bytesOf = async (file: Blob) => Buffer.from(await file.arrayBuffer());

test('added files are listed queued at once, one change for the turn, and stored byte for byte', async () => {
  const p = page();
  const files = [seededFile(3 * 256 * KiB + 7, 1), seededFile(10, 2), new Blob(['plain blob'], { type: 'text/plain' })];
  const tasks = files.map((file) => p.uploader.add(file));
  // What `add` promises: listed, queued, before the engine has answered anything.
  assert.deepEqual(
    p.uploader.snapshot.tasks.map((t) => [t.id, t.name, t.state, t.total]),
    [
      [tasks[0]!.id, (files[0] as File).name, 'queued', files[0]!.size],
      [tasks[1]!.id, (files[1] as File).name, 'queued', 10],
      [tasks[2]!.id, 'Untitled', 'queued', 10],
    ],
  );
  assert.equal(p.uploader.snapshot.totalBytes, files[0]!.size + 20);
  assert.equal(p.uploader.snapshot.online, true);
  assert.deepEqual(
    p.of('add').map((s) => s.id),
    tasks.map((t) => t.id),
  );
  assert.equal(p.uploader.task(tasks[1]!.id), tasks[1]);
  // Three adds in one turn: one change, not three (change-signal.ts: one a frame; in Node a 16 ms timer).
  const first = await p.when('change');
  assert.equal(first.tasks.length, 3);
  // A turn of the event loop later every timer due with the first has run: still one change.
  await new Promise(setImmediate);
  assert.equal(p.of('change').length, 1);

  const stored = await Promise.all(tasks.map((t) => t.done));
  for (const [i, file] of files.entries()) {
    assert.equal(tasks[i]!.state, 'done');
    assert.equal(stored[i]!.size, String(file.size));
    assert.deepEqual(await download(suite.service.url, stored[i]!.id), await bytesOf(file));
  }
  // Events in order per task: add, start, progress…, success; progress only grows, up to the whole file.
  const big = p.events.filter((e) => (e.detail as { id?: string }).id === tasks[0]!.id).map((e) => e.type);
  assert.deepEqual([big[0], big[1], big.at(-1)], ['add', 'start', 'success']);
  const acked = p
    .of('progress')
    .filter((s) => s.id === tasks[0]!.id)
    .map((s) => s.bytesAcknowledged);
  assert.ok(acked.length >= 3, `progress events: ${acked.length}`);
  assert.deepEqual(
    acked,
    [...acked].sort((a, b) => a - b),
  );
  assert.equal(p.of('success').find((s) => s.id === tasks[0]!.id)?.bytesAcknowledged, files[0]!.size);
  // The last change shows every task done, with the byte sums of the whole list.
  await p.ever('change', (s) => s.tasks.every((t) => t.state === 'done'));
  assert.equal(p.uploader.snapshot.sentBytes, files[0]!.size + 20);
  assert.equal(p.uploader.snapshot, p.uploader.snapshot, 'built once per change');
});

test('remove drops an ended task from the list and the engine, and does nothing to one that has not ended', async () => {
  const p = page();
  await addFault(suite.service.url, {
    match: { method: 'PUT', uploadType: 'resumable' },
    action: { type: 'delay', ms: 300 },
    times: 50,
  });
  const slow = p.uploader.add(seededFile(4 * 256 * KiB, 3));
  const quick = p.uploader.add(seededFile(100, 4));
  await quick.done;
  p.uploader.remove(slow.id); // still uploading: stays
  p.uploader.remove(quick.id);
  assert.deepEqual(
    p.uploader.snapshot.tasks.map((t) => t.id),
    [slow.id],
  );
  assert.equal(p.uploader.task(quick.id), undefined);
  slow.cancel();
  await assert.rejects(slow.done, (e: unknown) => e instanceof UploadError && e.code === 'cancelled');
  assert.equal(slow.state, 'cancelled');
  assert.deepEqual(
    await filesNamed(suite.service.url, (slow as unknown as { snapshot: { name: string } }).snapshot.name),
    [],
  );
  p.uploader.remove(slow.id);
  await p.ever('change', (s) => s.tasks.length === 0);
});

test('pause holds a task, resume finishes it; pauseAll and resumeAll reach every task, cancelAll ends them', async () => {
  const p = page({ concurrency: 1 });
  await addFault(suite.service.url, {
    match: { method: 'PUT', uploadType: 'resumable' },
    action: { type: 'delay', ms: 100 },
    times: 200,
  });
  const file = seededFile(6 * 256 * KiB, 5);
  const task = p.uploader.add(file);
  task.pause(); // in the turn of its add: held with it, never started
  const paused = await p.when('change', (s) => s.tasks[0]?.state === 'paused');
  assert.equal(paused.tasks[0]!.bytesAcknowledged, 0);
  task.resume();
  await p.when('progress', (s) => s.id === task.id && s.bytesAcknowledged > 0);
  task.pause();
  await p.when('change', (s) => s.tasks[0]?.state === 'paused');
  task.resume();
  const stored = await task.done;
  assert.deepEqual(await download(suite.service.url, stored.id), await bytesOf(file));

  const more = [seededFile(4 * 256 * KiB, 6), seededFile(4 * 256 * KiB, 7)].map((f) => p.uploader.add(f));
  await p.when('progress', (s) => s.id === more[0]!.id && s.bytesAcknowledged > 0);
  p.uploader.pauseAll();
  await p.when('change', (s) => more.every((m) => s.tasks.find((t) => t.id === m.id)?.state === 'paused'));
  p.uploader.resumeAll();
  await p.when('change', (s) => s.tasks.some((t) => more.some((m) => m.id === t.id) && t.state === 'uploading'));
  p.uploader.cancelAll();
  for (const m of more)
    await assert.rejects(m.done, (e: unknown) => e instanceof UploadError && e.code === 'cancelled');
  assert.equal(task.state, 'done', 'an ended task is not cancelled');
});

test('a task that fails reaches the app with its code; retry runs it again with a new done, retryFailed too', async () => {
  const p = page({ maxRetries: 0 });
  // The service fails the session's creation once, and the task may not retry: it fails with its code.
  await addFault(suite.service.url, {
    match: { method: 'POST', uploadType: 'resumable' },
    action: { type: 'status', status: 503 },
    times: 1,
  });
  const file = seededFile(2 * 256 * KiB + 1, 8);
  const task = p.uploader.add(file);
  const firstDone = task.done;
  const failed = await p.when('error', (s) => s.id === task.id);
  assert.equal(failed.state, 'failed');
  assert.equal(failed.error?.code, 'retries-exhausted', JSON.stringify(failed.error));
  assert.equal(failed.error?.status, 503);
  await assert.rejects(firstDone, (e: unknown) => e instanceof UploadError && e.code === 'retries-exhausted');
  assert.equal(p.uploader.snapshot.tasks[0]!.error?.code, 'retries-exhausted');
  assert.equal(task.state, 'failed');

  task.retry();
  assert.equal(task.state, 'queued');
  assert.notEqual(task.done, firstDone, 'a new attempt, a new done');
  assert.equal(p.uploader.snapshot.tasks[0]!.state, 'queued');
  assert.equal(p.uploader.snapshot.tasks[0]!.error, undefined);
  const stored = await task.done;
  assert.deepEqual(await download(suite.service.url, stored.id), await bytesOf(file));

  await addFault(suite.service.url, {
    match: { method: 'POST', uploadType: 'resumable' },
    action: { type: 'status', status: 503 },
    times: 1,
  });
  const again = p.uploader.add(seededFile(300, 9));
  await p.when('error', (s) => s.id === again.id);
  p.uploader.retryFailed();
  await again.done;
  assert.equal(again.state, 'done');
  // resume() on a failed task is a retry.
  await addFault(suite.service.url, {
    match: { method: 'POST', uploadType: 'resumable' },
    action: { type: 'status', status: 503 },
    times: 1,
  });
  const third = p.uploader.add(seededFile(301, 10));
  await p.when('error', (s) => s.id === third.id);
  third.resume();
  await third.done;

  // A final answer of the service: a folder that does not exist is not-found, and not retried.
  const lost = p.uploader.add(seededFile(302, 11), { parentId: 'no-such-folder' });
  await assert.rejects(lost.done, (e: unknown) => e instanceof UploadError && e.code === 'not-found');
  assert.equal(lost.state, 'failed');
  assert.equal(p.of('error').at(-1)?.error?.code, 'not-found');
});
