// The page uploader's `beforeUpload` hook (page/hooked-add.ts, page/before-upload.ts), in Node against the real
// service: the task is listed at once, and what the hook decides is what is stored — a new name (inside its folder),
// metadata, a replacement file — or the file leaves the list with a `reject` event and `done` rejects `rejected`.
import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { download, TOKEN } from './helpers/engine-harness.ts';
import { pageUploader, seededFile } from './helpers/page-uploader.ts';
import { createUploader } from '../../src/uploader/page/create-uploader.ts';
import { UploadError } from '../../src/uploader/contract/upload-error.ts';
import type { BeforeUpload } from '../../src/uploader/contract/types.ts';

let service: ServiceHandle;
const destroy: (() => void)[] = [];
before(async () => {
  service = await startService();
});
afterEach(() => {
  for (const end of destroy.splice(0)) end();
});
after(async () => {
  await service.stop();
});

function page(beforeUpload: BeforeUpload) {
  const made = pageUploader(service.url, { beforeUpload });
  destroy.push(() => made.uploader.destroy());
  return made;
}

async function storedDescription(fileId: string): Promise<string | undefined> {
  const res = await fetch(`${service.url}/store/v3/files/${fileId}?fields=description`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  assert.equal(res.status, 200);
  return ((await res.json()) as { description?: string }).description;
}

test('a hook that renames: listed at once under the old name, then the new one inside its folder; stored so', async () => {
  const seen: { name: string; relativePath: string }[] = [];
  const p = page((file, { relativePath }) => {
    seen.push({ name: file.name, relativePath });
    return file.name.endsWith('.keep') ? undefined : { name: `renamed-${file.name}`, metadata: { description: 'd' } };
  });
  // What the list shows at the moment the file is handed to the engine (right after the hook decided).
  const handedOver: string[][] = [];
  const addMany = p.service.addMany.bind(p.service);
  p.service.addMany = (requests, token) => {
    handedOver.push(p.uploader.snapshot.tasks.map((t) => `${t.relativePath ?? ''}|${t.name}`));
    return addMany(requests, token);
  };
  const file = seededFile(5000, 11, 'a.bin');
  const task = p.uploader.add(file, { relativePath: 'docs/a.bin', metadata: { description: 'first' } });
  assert.equal(p.uploader.snapshot.tasks[0]!.name, 'a.bin', 'listed before the hook has decided');
  assert.equal(p.uploader.snapshot.tasks[0]!.state, 'queued');
  const stored = await task.done;
  assert.deepEqual(seen, [{ name: 'a.bin', relativePath: 'docs/a.bin' }]);
  assert.deepEqual(handedOver[0], ['docs/renamed-a.bin|renamed-a.bin'], 'the list shows the new name at once');
  assert.equal(stored.name, 'renamed-a.bin');
  assert.equal(task.snapshot.name, 'renamed-a.bin');
  assert.equal(task.snapshot.relativePath, 'docs/renamed-a.bin');
  assert.deepEqual(await download(service.url, stored.id), Buffer.from(await file.arrayBuffer()));
  assert.equal(await storedDescription(stored.id), 'd', "the hook's metadata over the add's");
  await p.ever('change', (s) => s.tasks[0]?.name === 'renamed-a.bin' && s.tasks[0].state === 'done');

  // A hook that answers nothing keeps the file as it was; a Blob without a name is listed as "Untitled".
  const kept = p.uploader.add(seededFile(10, 12, 'b.keep'));
  assert.equal((await kept.done).name, 'b.keep');
  const blob = p.uploader.add(new Blob(['no name']));
  assert.equal((await blob.done).name, 'renamed-Untitled');
  assert.deepEqual(
    seen.map((s) => s.relativePath),
    ['docs/a.bin', 'b.keep', 'Untitled'],
  );
  assert.deepEqual(p.of('reject'), []);
});

test('a hook that gives another file: that file is stored, and the list shows its name and size', async () => {
  const replacement = new File(['the converted bytes'], 'out.txt', { type: 'text/plain' });
  const p = page(() => replacement);
  const sizes: number[] = [];
  const addMany = p.service.addMany.bind(p.service);
  p.service.addMany = (requests, token) => {
    sizes.push(p.uploader.snapshot.totalBytes);
    return addMany(requests, token);
  };
  const task = p.uploader.add(seededFile(4000, 13, 'in.bin'));
  assert.equal(p.uploader.snapshot.totalBytes, 4000);
  const stored = await task.done;
  assert.deepEqual(sizes, [replacement.size], 'the list shows the replacement’s size when it is handed over');
  assert.equal(stored.name, 'out.txt');
  assert.deepEqual(await download(service.url, stored.id), Buffer.from('the converted bytes'));
  assert.equal(task.snapshot.total, replacement.size);
  assert.equal(task.snapshot.type, 'text/plain');
  const last = await p.ever('change', (s) => s.tasks[0]?.state === 'done');
  assert.equal(last.totalBytes, replacement.size);
});

test('a hook that skips, throws or answers nonsense: the file leaves the list with a reject event and its reason', async () => {
  const p = page((file) => {
    if (file.name === 'skip.bin') return false;
    if (file.name === 'throw.bin') throw new Error('no scanning service');
    if (file.name === 'odd.bin') return 42 as never;
    return undefined;
  });
  const skipped = p.uploader.add(seededFile(10, 14, 'skip.bin'));
  const thrown = p.uploader.add(seededFile(10, 15, 'throw.bin'), { relativePath: 'in/throw.bin' });
  const odd = p.uploader.add(seededFile(10, 16, 'odd.bin'));
  const fine = p.uploader.add(seededFile(10, 17, 'fine.bin'));
  assert.equal(p.uploader.snapshot.tasks.length, 4, 'every file is listed before its hook decides');
  for (const task of [skipped, thrown, odd])
    await assert.rejects(task.done, (e: unknown) => e instanceof UploadError && e.code === 'rejected');
  await fine.done;
  // Each file's hook runs on its own; under load they settle in any order, so the events are compared by name.
  const rejects = p.of('reject').sort((a, b) => (a.name < b.name ? -1 : 1));
  assert.deepEqual(
    rejects.map((r) => [r.taskId, r.name, r.relativePath, r.reason]),
    [
      [odd.id, 'odd.bin', 'odd.bin', 'hook-error'],
      [skipped.id, 'skip.bin', 'skip.bin', 'skipped'],
      [thrown.id, 'throw.bin', 'in/throw.bin', 'hook-error'],
    ],
  );
  assert.match(rejects[0]!.message, /beforeUpload must return .*got 42/);
  assert.equal(rejects[1]!.message, 'skipped by beforeUpload');
  assert.equal(rejects[2]!.message, 'no scanning service');
  assert.deepEqual(
    p.uploader.snapshot.tasks.map((t) => t.id),
    [fine.id],
  );
  assert.deepEqual(p.of('error'), [], 'a refusal is not an upload error');
  await p.ever('change', (s) => s.tasks.length === 1 && s.tasks[0]!.state === 'done');
});

test('createUploader refuses a beforeUpload or getAccessToken that is not a function, saying which', () => {
  const refused = (options: object, what: RegExp) =>
    assert.throws(
      () => createUploader({ baseUrl: service.url, service: {} as never, ...options } as never),
      (e: unknown) => e instanceof UploadError && e.code === 'bad-request' && what.test(e.message),
    );
  refused({ getAccessToken: () => TOKEN, beforeUpload: 'rename' }, /beforeUpload must be a function/);
  refused({ getAccessToken: TOKEN }, /getAccessToken must be a function/);
});
