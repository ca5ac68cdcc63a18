// The wait for the answer to the request that completes a file is bounded (send-guarded.ts `answerWithin`: the
// stall timeout times four), unless the file is being converted: an answer that never comes is given up, the
// session asked where it stands, and the upload completes — one file, its bytes — instead of waiting forever.
// Real engine, real service over loopback; the service holds the final PUT with an admin delay fault.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { SPREADSHEET_MIME as SPREADSHEET } from '../../src/protocol/native.ts';
import { addFault, download, filesNamed, harness, md5, randomFile } from './helpers/engine-harness.ts';

const KiB = 1024;

let service: ServiceHandle;
before(async () => {
  service = await startService();
});
after(async () => {
  await service.stop();
});

test(
  'a final PUT whose answer never comes is given up after the bounded wait, and the upload completes',
  { timeout: 60_000 },
  async () => {
    // Only the first PUT of a session is held (far past the test's own time limit); the re-sent one is answered.
    await addFault(service.url, {
      match: { method: 'PUT', pathPrefix: '/upload/store/v3/files', uploadType: 'resumable' },
      action: { type: 'delay', ms: 600_000 },
    });
    const h = harness(service.url, { stallTimeoutMs: 1000, resumableThreshold: 0 });
    const file = randomFile(300 * KiB + 7);
    await h.engine.add('final', file);
    const stored = await h.engine.done('final');
    const retries = h.events.filter((e) => e.event === 'retry').map((e) => e.snapshot.retry?.cause);
    assert.ok(retries.includes('stall'), `the held answer was given up as a stall: ${JSON.stringify(retries)}`);
    assert.equal(md5(await download(service.url, stored.id)), md5(file.bytes));
    assert.deepEqual(await filesNamed(service.url, file.name), [{ id: stored.id }]);
  },
);

test(
  'a converting upload waits for its final answer however long the conversion takes: no stall, no retry',
  { timeout: 60_000 },
  async () => {
    // The conversion's answer comes six stall timeouts after the last byte: past the four a plain file's may take.
    await addFault(service.url, {
      match: { method: 'PUT', pathPrefix: '/upload/store/v3/files', uploadType: 'resumable' },
      action: { type: 'delay', ms: 6000 },
    });
    const h = harness(service.url, { stallTimeoutMs: 1000, resumableThreshold: 0 });
    const csv = 'fruit,count\r\napples,3\r\npears,12\r\n';
    const file = { file: new Blob([csv], { type: 'text/csv' }), name: 'fruit.csv', type: 'text/csv', lastModified: 1 };
    await h.engine.add('converted', file, { convertTo: SPREADSHEET });
    const stored = await h.engine.done('converted');
    assert.equal(stored.mimeType, SPREADSHEET);
    const retries = h.events.filter((e) => e.event === 'retry').map((e) => e.snapshot.retry?.cause);
    assert.deepEqual(retries, []);
    assert.deepEqual(await filesNamed(service.url, stored.name ?? ''), [{ id: stored.id }]);
  },
);

test(
  'a final answer slower than the stall limit but within its bound is waited for: no stall, no retry',
  { timeout: 60_000 },
  async () => {
    // The answer comes 2.5 s after the last byte: past the 1 s stall limit, within the final answer's 4 s.
    await addFault(service.url, {
      match: { method: 'PUT', pathPrefix: '/upload/store/v3/files', uploadType: 'resumable' },
      action: { type: 'delay', ms: 2500 },
    });
    const h = harness(service.url, { stallTimeoutMs: 1000, resumableThreshold: 0 });
    const file = randomFile(64 * KiB + 3);
    await h.engine.add('slow-answer', file);
    const stored = await h.engine.done('slow-answer');
    const retries = h.events.filter((e) => e.event === 'retry').map((e) => e.snapshot.retry?.cause);
    assert.deepEqual(retries, []);
    assert.equal(md5(await download(service.url, stored.id)), md5(file.bytes));
  },
);

test(
  'the last chunk of a file sent in several has the final answer’s bound too: a slow answer to it is waited for',
  { timeout: 60_000 },
  async () => {
    // The first PUT (the first 256 KiB) is answered at once; the second, the last 3 bytes, 2.5 s after they went
    // out: past the 1 s stall limit, within the final answer's 4 s.
    await addFault(service.url, {
      match: { method: 'PUT', pathPrefix: '/upload/store/v3/files', uploadType: 'resumable' },
      action: { type: 'delay', ms: 2500 },
      skip: 1,
    });
    const h = harness(service.url, { stallTimeoutMs: 1000, resumableThreshold: 0, chunkSize: 256 * KiB });
    const file = randomFile(256 * KiB + 3);
    await h.engine.add('slow-last-chunk', file);
    const stored = await h.engine.done('slow-last-chunk');
    const retries = h.events.filter((e) => e.event === 'retry').map((e) => e.snapshot.retry?.cause);
    assert.deepEqual(retries, []);
    assert.equal(md5(await download(service.url, stored.id)), md5(file.bytes));
  },
);
