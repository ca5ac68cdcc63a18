// Where a file with a relative path is stored (engine/place-file.ts), against the real service over loopback: with
// the uploader's `flatten` (or an add's own) it goes straight into the target, no folder made; a path whose only
// slash leads it (`/top.bin`) names no folder, so the file goes into the target too, not failing for an empty name.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createStoreClient } from '../../src/client/index.ts';
import { FOLDER_MIME } from '../../src/protocol/native.ts';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { harness, randomFile, TOKEN } from './helpers/engine-harness.ts';

let service: ServiceHandle;
before(async () => {
  service = await startService();
});
after(async () => {
  await service.stop();
});

/** A fresh folder to upload into, and what it holds once the uploads are done. */
async function target() {
  const client = createStoreClient({ baseUrl: service.url, getAccessToken: () => TOKEN });
  const id = (await client.files.create({ name: `root-${crypto.randomUUID()}`, mimeType: FOLDER_MIME })).id;
  const children = async () =>
    (await client.files.list({ q: `'${id}' in parents`, fields: [{ files: ['id', 'name', 'mimeType'] }] })).files
      ?.map((f) => ({ name: f.name, folder: f.mimeType === FOLDER_MIME }))
      .sort((a, b) => String(a.name).localeCompare(String(b.name)));
  return { id, children };
}

test("with the uploader's flatten set, files with a relative path are stored in its parentId: no folder is made", async () => {
  const root = await target();
  const h = harness(service.url, { parentId: root.id, flatten: true, stallTimeoutMs: 60_000 });
  try {
    await h.engine.add('a', randomFile(1000, 'a.bin'), { relativePath: 'holiday/2026/a.bin' });
    // An add's own flatten too.
    await h.engine.add('b', randomFile(1000, 'b.bin'), { relativePath: 'holiday/b.bin', flatten: true });
    await Promise.all([h.engine.done('a'), h.engine.done('b')]);
    assert.deepEqual(await root.children(), [
      { name: 'a.bin', folder: false },
      { name: 'b.bin', folder: false },
    ]);
  } finally {
    await h.engine.destroy();
  }
});

test('a relative path with only a leading slash names no folder: the file is stored in the target', async () => {
  const root = await target();
  const h = harness(service.url, { parentId: root.id, stallTimeoutMs: 60_000 });
  try {
    await h.engine.add('top', randomFile(1000, 'top.bin'), { relativePath: '/top.bin' });
    const stored = await h.engine.done('top');
    assert.equal(stored.name, 'top.bin');
    assert.deepEqual(await root.children(), [{ name: 'top.bin', folder: false }]);
  } finally {
    await h.engine.destroy();
  }
});
