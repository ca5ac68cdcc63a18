// The page uploader's less travelled paths, in Node against the real service: a task's byte counts, a conversion
// listed from the first snapshot, `addFolder`, an engine that never starts (every task fails, saying why), and the
// page going offline and online (the running upload is interrupted, then finishes).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addFault, download, TOKEN } from './helpers/engine-harness.ts';
import { pageSuite, pageUploader, seededFile } from './helpers/page-uploader.ts';
import { wrap } from 'comlink';
import type { WorkerCalls } from '../../src/uploader/contract/worker-contract.ts';
import { UploadError } from '../../src/uploader/contract/upload-error.ts';
import { DOCUMENT_MIME, FOLDER_MIME } from '../../src/protocol/native.ts';

const KiB = 1024;

const suite = pageSuite();
const { page } = suite;

test('a task tells its total, bytes sent and bytes acknowledged; a conversion is listed from its first snapshot', async () => {
  const p = page();
  const file = seededFile(3 * 256 * KiB + 5, 41);
  const task = p.uploader.add(file);
  assert.equal(task.total, file.size);
  assert.equal(task.bytesSent, 0);
  assert.equal(task.bytesAcknowledged, 0);
  await task.done;
  assert.equal(task.total, file.size);
  assert.equal(task.bytesSent, file.size);
  assert.equal(task.bytesAcknowledged, file.size);

  const text = new File(['Notes\n'], 'notes.txt', { type: 'text/plain', lastModified: 1_700_000_000_000 });
  const converting = p.uploader.add(text, { convertTo: DOCUMENT_MIME });
  const [added] = p.of('add').filter((s) => s.id === converting.id);
  assert.equal(added?.convertTo, DOCUMENT_MIME, 'the add event lists the conversion');
  assert.equal(p.uploader.snapshot.tasks.find((t) => t.id === converting.id)?.convertTo, DOCUMENT_MIME);
  const stored = await converting.done;
  assert.equal(stored.mimeType, DOCUMENT_MIME);
});

test('addFolder makes the path of folders at the service and answers the last one’s id', async () => {
  const p = page();
  const id = await p.uploader.addFolder('edges-empty/inner');
  assert.equal(typeof id, 'string');
  const fields = async (fileId: string) => {
    const r = await suite.service.api('GET', `/store/v3/files/${fileId}?fields=name,mimeType,parents`, {
      token: TOKEN,
    });
    assert.equal(r.status, 200, r.text);
    return r.json<{ name: string; mimeType: string; parents: string[] }>();
  };
  const inner = await fields(id!);
  assert.deepEqual([inner.name, inner.mimeType], ['inner', FOLDER_MIME]);
  const outer = await fields(inner.parents[0]!);
  assert.deepEqual([outer.name, outer.mimeType], ['edges-empty', FOLDER_MIME]);
});

test('a worker that never answers fails every listed task with "unknown", saying it did not start and why', async () => {
  // The page's end of a channel nobody serves: a worker whose script never runs answers nothing (a wrong worker URL).
  const { port1, port2 } = new MessageChannel();
  const p = page({ service: wrap<WorkerCalls>(port1) });
  try {
    const task = p.uploader.add(seededFile(1000, 42));
    const why = 'the upload worker did not start: no answer within 15000 ms';
    // Waited for as a change first: that wait is bounded, a `done` that never settles is not.
    const change = await p.ever('change', (s) => s.tasks.every((t) => t.state === 'failed'));
    assert.deepEqual(
      change.tasks.map((t) => [t.id, t.state, t.error]),
      [[task.id, 'failed', { code: 'unknown', message: why }]],
    );
    const error = await task.done.then(
      () => assert.fail('an upload without an engine cannot succeed'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof UploadError, String(error));
    assert.deepEqual([error.code, error.message], ['unknown', why]);
    assert.equal(task.state, 'failed');
  } finally {
    port1.close();
    port2.close();
  }
});

test('offline interrupts the running upload (a retry for "offline"); online again, it finishes', async () => {
  // A window's global scope, whose online/offline events the page listens to (Node's has none).
  const scope = globalThis as { addEventListener?: unknown; removeEventListener?: unknown };
  const target = new EventTarget();
  scope.addEventListener = target.addEventListener.bind(target);
  scope.removeEventListener = target.removeEventListener.bind(target);
  // Made here, not by the suite: it is destroyed below, while the scope still has its events.
  const p = pageUploader(suite.service.url);
  try {
    await addFault(suite.service.url, {
      match: { method: 'PUT', uploadType: 'resumable' },
      action: { type: 'delay', ms: 200 },
      times: 400,
    });
    const file = seededFile(6 * 256 * KiB, 43);
    const task = p.uploader.add(file);
    await p.when('progress', (s) => s.id === task.id && s.bytesAcknowledged > 0);
    const offlineChange = p.when('change', (s) => !s.online);
    const interrupted = p.when('retry', (s) => s.id === task.id && s.retry?.cause === 'offline');
    target.dispatchEvent(new Event('offline'));
    assert.equal((await offlineChange).online, false);
    assert.equal(p.uploader.snapshot.online, false);
    await interrupted;
    target.dispatchEvent(new Event('online'));
    const stored = await task.done;
    assert.equal(p.uploader.snapshot.online, true);
    assert.deepEqual(await download(suite.service.url, stored.id), Buffer.from(await file.arrayBuffer()));
  } finally {
    p.uploader.destroy(); // it stops listening to the scope's events while they are there
    delete scope.addEventListener;
    delete scope.removeEventListener;
  }
});
