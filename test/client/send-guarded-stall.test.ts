// The stall guard of the engine's requests, against the real service over loopback: a request whose answer is held
// well past the bound of its wait is given up as a stall and the upload goes on with a retry, instead of waiting for
// as long as the service holds it (issue 39's mutant of engine/send-guarded.ts, the timer armed for a bounded wait).
// The service holds the first PUT for 20 s, a finite time, so an engine that waits it out still ends, and is seen to.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { addFault, clearFaults, download, filesNamed, harness, md5, randomFile } from './helpers/engine-harness.ts';

const KiB = 1024;

let service: ServiceHandle;
before(async () => {
  service = await startService();
});
after(async () => {
  await service.stop();
});

test(
  'a PUT the service holds for 20 s is given up as a stall after the bounded wait (8 s), and the upload completes',
  { timeout: 120_000 },
  async () => {
    await clearFaults(service.url);
    await addFault(service.url, {
      match: { method: 'PUT', pathPrefix: '/upload/store/v3/files', uploadType: 'resumable' },
      action: { type: 'delay', ms: 20_000 },
      times: 1,
    });
    const h = harness(service.url, { stallTimeoutMs: 2000, resumableThreshold: 0, backoff: { baseMs: 1, capMs: 5 } });
    const file = randomFile(300 * KiB + 11);
    await h.engine.add('held', file);
    const stored = await h.engine.done('held');
    await clearFaults(service.url);
    const retries = h.events.filter((e) => e.event === 'retry').map((e) => e.snapshot.retry?.cause);
    assert.ok(retries.includes('stall'), `the held request was given up as a stall: ${JSON.stringify(retries)}`);
    assert.equal(md5(await download(service.url, stored.id)), md5(file.bytes));
    assert.deepEqual(await filesNamed(service.url, file.name), [{ id: stored.id }]);
  },
);
