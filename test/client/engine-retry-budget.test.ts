// The retry budget of a task (upload-job.ts `backoff`): exactly maxRetries retries, each told with its attempt and
// the service's status, then one `retries-exhausted` error naming the last cause — also when that cause is no answer
// of the service at all (a session gone at every PUT). Real engine, real service over loopback, faults set through
// its admin API.
import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import type { UploadError } from '../../src/uploader/contract/upload-error.ts';
import { withTimeout } from '../../src/uploader/contract/with-timeout.ts';
import type { HttpPort } from '../../src/uploader/contract/ports.ts';
import { addFault, clearFaults, filesNamed, harness, randomFile } from './helpers/engine-harness.ts';
import { nodeHttp } from './helpers/node-http-port.ts';

let service: ServiceHandle;
before(async () => {
  service = await startService();
});
afterEach(async () => {
  await clearFaults(service.url);
});
after(async () => {
  await service.stop();
});

const failure = (done: Promise<unknown>): Promise<UploadError> =>
  withTimeout(
    done.then(
      () => assert.fail('the task was stored'),
      (e: UploadError) => e,
    ),
    60_000,
    () => new Error('the task neither failed nor was stored within 60 s'),
  );

test('a create answered 500 every time is retried exactly maxRetries times, then fails with its status and reason', async () => {
  await addFault(service.url, {
    match: { method: 'POST', uploadType: 'multipart' },
    action: { type: 'status', status: 500 },
    times: 10,
  });
  // Each delay is jittered within its window, 20 ms × 2^(attempt - 1), never past it.
  const h = harness(service.url, { maxRetries: 2, backoff: { baseMs: 20, capMs: 1000 } });
  const file = randomFile(10 * 1024);
  await h.engine.add('t', file);
  const error = await failure(h.engine.done('t'));
  assert.equal(error.code, 'retries-exhausted');
  assert.equal(error.status, 500);
  assert.equal(error.reason, 'backendError');
  assert.match(error.message, /^gave up after 2 retries without progress \(last: server-error 500 /);
  const retries = h.events.filter((e) => e.event === 'retry').map((e) => e.snapshot.retry);
  assert.deepEqual(
    retries.map((r) => [r?.attempt, r?.cause, r?.status]),
    [
      [1, 'server-error', 500],
      [2, 'server-error', 500],
    ],
  );
  retries.forEach((r, i) => {
    const delay = r?.delayMs ?? -1;
    assert.ok(delay >= 0 && delay < 20 * 2 ** i, `retry ${i + 1} waits ${delay} ms, outside [0, ${20 * 2 ** i})`);
  });
  assert.deepEqual(await filesNamed(service.url, file.name), []);
});

test('a session gone at every PUT ends in retries-exhausted naming session-expired, with no status or reason', async () => {
  // Every session is cancelled with the service (DELETE on its URI) just before the engine's PUT reaches it.
  const http: HttpPort = {
    send: async (req, hooks) => {
      if (req.method === 'PUT') {
        const cancelled = await fetch(req.url, { method: 'DELETE' });
        assert.equal(cancelled.status, 499, 'the session is cancelled');
      }
      return nodeHttp.send(req, hooks);
    },
  };
  const h = harness(service.url, { maxRetries: 1, resumableThreshold: 0, http });
  const file = randomFile(64 * 1024);
  await h.engine.add('t', file);
  const error = await failure(h.engine.done('t'));
  assert.equal(error.code, 'retries-exhausted', error.message);
  assert.equal(error.message, 'gave up after 1 retries without progress (last: session-expired)');
  assert.equal(error.status, undefined);
  assert.equal(error.reason, undefined);
  const retries = h.events.filter((e) => e.event === 'retry').map((e) => e.snapshot.retry);
  assert.deepEqual(
    retries.map((r) => [r?.attempt, r?.cause, r?.status]),
    [[1, 'session-expired', undefined]],
  );
  assert.deepEqual(await filesNamed(service.url, file.name), []);
});

test('a create cut off every time fails as retries-exhausted with no status: a network error is no answer', async () => {
  await addFault(service.url, {
    match: { method: 'POST', uploadType: 'multipart' },
    action: { type: 'cut', afterBytes: 0 },
    times: 10,
  });
  const h = harness(service.url, { maxRetries: 1 });
  const file = randomFile(10 * 1024);
  await h.engine.add('t', file);
  const error = await failure(h.engine.done('t'));
  assert.equal(error.code, 'retries-exhausted', error.message);
  assert.match(error.message, /^gave up after 1 retries without progress \(last: [a-z-]+ 0 /);
  assert.equal(error.status, undefined, 'status 0 is not told as a status');
  const retries = h.events.filter((e) => e.event === 'retry').map((e) => e.snapshot.retry);
  assert.equal(retries.length, 1);
  assert.equal(retries[0]?.status, undefined);
  assert.deepEqual(await filesNamed(service.url, file.name), []);
});
