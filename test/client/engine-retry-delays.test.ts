// A retried upload waits as the app's `backoff` option says, not the protocol's defaults (a 1 s base): with a base
// of 1 ms the delay a `retry` event announces is 0 (a random fraction of 1 ms, floored), where the default would
// give 0 only once in a thousand draws. Real engine, real service
// over loopback; the service answers the first create 503 (an admin fault).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { addFault, download, harness, md5, randomFile } from './helpers/engine-harness.ts';

let service: ServiceHandle;
before(async () => {
  service = await startService();
});
after(async () => {
  await service.stop();
});

test("a retry's delay is the app's backoff: under its 1 ms base", async () => {
  await addFault(service.url, {
    match: { method: 'POST', pathPrefix: '/upload/store/v3/files', uploadType: 'multipart' },
    action: { type: 'status', status: 503 },
  });
  const h = harness(service.url, { backoff: { baseMs: 1, capMs: 1 } });
  const file = randomFile(40 * 1024);
  await h.engine.add('r', file);
  const stored = await h.engine.done('r');
  const retries = h.events.filter((e) => e.event === 'retry').map((e) => e.snapshot.retry);
  assert.deepEqual(
    retries.map((r) => [r?.attempt, r?.delayMs, r?.status]),
    [[1, 0, 503]],
  );
  assert.equal(md5(await download(service.url, stored.id)), md5(file.bytes));
});
