// The engine's `remove` and `addFolder` retries against the real service over loopback: only a finished task is
// dropped (a running one stays listed, an unknown id is no error), and a folder create the service keeps refusing
// with 503 is sent maxRetries + 1 times, then fails with that 503 (issue 39's mutants of engine/engine.ts).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createStoreClient, StoreError } from '../../src/client/index.ts';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { startCountingProxy } from './helpers/counting-proxy.ts';
import { addFault, clearFaults, harness, randomFile, TOKEN } from './helpers/engine-harness.ts';

const KiB = 1024;

let service: ServiceHandle;
before(async () => {
  service = await startService();
});
after(async () => {
  await service.stop();
});

test('remove drops a finished task only: a running one stays listed, an unknown id is no error', async () => {
  await clearFaults(service.url);
  await addFault(service.url, {
    match: { method: 'PUT', uploadType: 'resumable' },
    action: { type: 'delay', ms: 200 },
    times: 3,
  });
  const h = harness(service.url, { resumableThreshold: 0, chunkSize: 256 * KiB });
  await h.engine.add('t1', randomFile(3 * 256 * KiB));
  await h.when((event, snapshot) => event === 'progress' && snapshot.bytesAcknowledged > 0);
  h.engine.remove('t1');
  assert.equal(h.engine.snapshot('t1')?.state, 'uploading', 'a running task is not dropped');
  assert.doesNotThrow(() => h.engine.remove('no-such-task'));
  assert.equal(h.engine.snapshot('no-such-task'), undefined);
  await h.engine.done('t1');
  assert.equal(h.engine.snapshot('t1')?.state, 'done');
  h.engine.remove('t1');
  assert.equal(h.engine.snapshot('t1'), undefined, 'a finished task is dropped');
  assert.deepEqual(
    h.engine.snapshots().map((s) => s.id),
    [],
  );
  await clearFaults(service.url);
});

test('a folder create answered 503 every time is sent maxRetries + 1 times, then fails with the 503', async () => {
  await clearFaults(service.url);
  const proxy = await startCountingProxy(service.url);
  try {
    await addFault(service.url, {
      match: { method: 'POST', pathPrefix: '/store/v3/files' },
      action: { type: 'status', status: 503 },
      times: 100,
    });
    const h = harness(service.url, {
      client: createStoreClient({ baseUrl: proxy.url, getAccessToken: () => TOKEN }),
      maxRetries: 2,
      backoff: { baseMs: 1, capMs: 5 },
    });
    await assert.rejects(
      h.engine.addFolder('refused/inner'),
      (e: unknown) => e instanceof StoreError && e.status === 503,
    );
    const creates = proxy.requests.filter((r) => r.method === 'POST' && r.url.startsWith('/store/v3/files'));
    assert.equal(creates.length, 3);
  } finally {
    await clearFaults(service.url);
    await proxy.close();
  }
});
