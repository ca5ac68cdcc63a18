// The engine's less travelled calls against the real reference service: the file a task uploads (`fileOf`), a
// resume of a task that has ended (nothing happens), a failed task removed (its record and session go), and the
// uploader's parentId as the default place of `addFolder`.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { MemorySessionStore } from '../../src/uploader/adapters/memory-session-store.ts';
import { FOLDER_MIME } from '../../src/protocol/native.ts';
import { addFault, clearFaults, download, filesNamed, harness, randomFile, TOKEN } from './helpers/engine-harness.ts';

const KiB = 1024;

let service: ServiceHandle;
before(async () => {
  service = await startService();
});
after(async () => {
  await service.stop();
});

test('fileOf answers what a task uploads, and undefined for a task the engine does not have', async () => {
  const h = harness(service.url);
  const file = randomFile(1000, 'file-of.bin', 'text/plain');
  await h.engine.add('t', file);
  assert.equal(h.engine.fileOf('t')?.name, 'file-of.bin');
  assert.equal(h.engine.fileOf('t')?.type, 'text/plain');
  assert.equal(h.engine.fileOf('t')?.file, file.file);
  assert.equal(h.engine.fileOf('no-such-task'), undefined);
  await h.engine.done('t');
});

test('resuming a task that has ended does nothing: it is not uploaded again', async () => {
  const h = harness(service.url);
  const first = randomFile(2000);
  await h.engine.add('first', first);
  await h.engine.done('first');
  const eventsOfFirst = h.events.filter((e) => e.snapshot.id === 'first').length;
  h.engine.resume('first');
  // A task added after the resume runs after anything the resume queued: once it is done, a second run would show.
  await h.engine.add('second', randomFile(2000));
  await h.engine.done('second');
  assert.equal(h.events.filter((e) => e.snapshot.id === 'first').length, eventsOfFirst, 'no event of the ended task');
  assert.equal(h.engine.snapshot('first')?.state, 'done');
  assert.equal((await filesNamed(service.url, first.name)).length, 1, 'stored once');
});

test('removing a failed resumable task deletes its stored record (it does not come back as interrupted)', async () => {
  await clearFaults(service.url);
  /** The memory store, telling when a record is deleted. */
  class WatchedStore extends MemorySessionStore {
    deleted: string[] = [];
    #wake: (() => void) | undefined;
    override async delete(id: string): Promise<void> {
      await super.delete(id);
      this.deleted.push(id);
      this.#wake?.();
    }
    next(): Promise<void> {
      return new Promise((resolve) => (this.#wake = resolve));
    }
  }
  const store = new WatchedStore();
  const h = harness(service.url, { store, resumableThreshold: 0, chunkSize: 256 * KiB });
  // Every chunk is refused: the task fails once its retries are spent, its session started and recorded.
  await addFault(service.url, {
    match: { method: 'PUT', uploadType: 'resumable' },
    action: { type: 'status', status: 503 },
    times: 1000,
  });
  await h.engine.add('t', randomFile(3 * 256 * KiB));
  await assert.rejects(h.engine.done('t'));
  assert.equal(h.engine.snapshot('t')?.state, 'failed');
  await clearFaults(service.url);
  const [record] = await store.list();
  assert.ok(record?.sessionUri, 'the failed task kept its session');
  const gone = store.next();
  h.engine.remove('t');
  await gone;
  assert.deepEqual(store.deleted, [record.id]);
  assert.deepEqual(await store.list(), []);
  assert.deepEqual(await h.engine.interrupted(), []);
});

test('addFolder makes its folders under the uploader’s parentId, and none when the uploader flattens', async () => {
  const h0 = harness(service.url);
  const parentId = await h0.engine.addFolder('edges-default-parent');
  const h = harness(service.url, { parentId: parentId! });
  const id = await h.engine.addFolder('edges-child');
  const r = await service.api('GET', `/store/v3/files/${id}?fields=name,mimeType,parents`, { token: TOKEN });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.json(), { name: 'edges-child', mimeType: FOLDER_MIME, parents: [parentId] });
  // An uploader that flattens makes no folders: addFolder answers undefined and creates nothing.
  const flat = harness(service.url, { flatten: true });
  assert.equal(await flat.engine.addFolder('edges-never-made'), undefined);
  assert.deepEqual(await filesNamed(service.url, 'edges-never-made'), []);
});

test('addFolder of a path that names no folder rejects with a RangeError saying so', async () => {
  const h = harness(service.url);
  await assert.rejects(h.engine.addFolder('/'), { name: 'RangeError', message: '"/" names no folder' });
});

test('a file of a folder added with flatten is stored directly in the target, making no folder', async () => {
  const h = harness(service.url);
  const home = await rootParents(h);
  await h.engine.add('nested', randomFile(100, 'edges-flat.bin'), {
    relativePath: 'edges-flat-dir/edges-flat.bin',
    flatten: true,
  });
  const stored = await h.engine.done('nested');
  const r = await service.api('GET', `/store/v3/files/${stored.id}?fields=parents`, { token: TOKEN });
  assert.deepEqual(r.json<{ parents: string[] }>().parents, home);
  assert.deepEqual(await filesNamed(service.url, 'edges-flat-dir'), []);
});

/** The parents of a file uploaded with no folder (the account's root), asked of the service. */
async function rootParents(h: ReturnType<typeof harness>): Promise<string[]> {
  await h.engine.add('root-probe', randomFile(10));
  const { id } = await h.engine.done('root-probe');
  const r = await service.api('GET', `/store/v3/files/${id}?fields=parents`, { token: TOKEN });
  return r.json<{ parents: string[] }>().parents;
}

test('a resumable update of an existing file sends its new bytes to that file, recorded as an update', async () => {
  await clearFaults(service.url);
  const h = harness(service.url, { resumableThreshold: 0, chunkSize: 256 * KiB });
  await h.engine.add('original', randomFile(1000, 'edges-updated.bin'));
  const original = await h.engine.done('original');
  await addFault(service.url, {
    match: { method: 'PUT', uploadType: 'resumable' },
    action: { type: 'delay', ms: 100 },
    times: 10,
  });
  const next = randomFile(3 * 256 * KiB, 'edges-updated.bin');
  await h.engine.add('update', next, { updateFileId: original.id });
  await h.when((event, snapshot) => snapshot.id === 'update' && event === 'progress' && snapshot.bytesAcknowledged > 0);
  const [record] = await h.store.list();
  assert.equal(record?.updateFileId, original.id, 'the session record says which file it updates');
  const updated = await h.engine.done('update');
  await clearFaults(service.url);
  assert.equal(updated.id, original.id);
  assert.deepEqual(await download(service.url, original.id), next.bytes);
});
