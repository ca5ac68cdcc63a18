// Every wait of the engine on something outside it has a bound: a session store (IndexedDB) that stops answering
// fails a resume where the user sees it, or makes a new upload retry, instead of leaving the task queued or
// uploading at 0 bytes forever (the Firefox smoke suite's "file chosen again" failure) — in Node, real service.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { MemorySessionStore } from '../../src/uploader/adapters/memory-session-store.ts';
import type { SessionRecord } from '../../src/uploader/contract/ports.ts';
import { download, filesNamed, harness, md5, randomFile } from './helpers/engine-harness.ts';

const KiB = 1024;
const never = new Promise<never>(() => undefined);

let service: ServiceHandle;
before(async () => {
  service = await startService();
});
after(async () => {
  await service.stop();
});

test(
  'resuming a stored session whose store never answers fails the task with an error, not a task queued forever',
  { timeout: 20_000 },
  async () => {
    const store = new MemorySessionStore();
    const file = randomFile(300 * KiB);
    await store.put({
      id: 'kept',
      sessionUri: `${service.url}/upload/x`,
      fingerprint: 'f',
      name: file.name,
      type: file.type,
      total: file.file.size,
      metadata: {},
      acknowledged: 0,
      hashedTo: 0,
      createdAt: Date.now(),
      updatedAt: Date.now(),
    } satisfies SessionRecord);
    store.get = () => never;
    const { engine } = harness(service.url, { store, stallTimeoutMs: 300 });
    await assert.rejects(
      engine.add('b', file, {}, 'kept'),
      (error: { code?: string; message?: string }) =>
        error.code === 'unknown' && /did not answer within 300 ms/.test(error.message ?? ''),
    );
    assert.deepEqual(engine.snapshots(), [], 'no task left behind');
  },
);

test(
  "a new session's record write that never ends makes the task retry (stall), and the upload completes",
  { timeout: 20_000 },
  async () => {
    const store = new MemorySessionStore();
    const put = store.put.bind(store);
    let hung = 0;
    store.put = (record) => (hung++ === 0 ? never : put(record));
    const h = harness(service.url, { store, stallTimeoutMs: 300, resumableThreshold: 0, chunkSize: 256 * KiB });
    const file = randomFile(600 * KiB + 3);
    await h.engine.add('a', file);
    const retry = await h.when((event) => event === 'retry');
    assert.equal(retry.retry?.cause, 'stall');
    const stored = await h.engine.done('a');
    assert.equal(md5(await download(service.url, stored.id)), md5(file.bytes));
    assert.deepEqual(await filesNamed(service.url, file.name), [{ id: stored.id }]);
  },
);
