// Files of one dropped folder share its folders, against the real service over loopback: two files under the same
// relative folder are stored in one folder, asked for once (engine/folder-tree.ts keeps the folder it made, or is
// making, for every later file of that path; its pre-generated ID alone would keep a second create from making a
// second folder, at the cost of a request per file), counted at a real proxy.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createStoreClient } from '../../src/client/index.ts';
import { FOLDER_MIME } from '../../src/protocol/native.ts';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { startCountingProxy } from './helpers/counting-proxy.ts';
import { harness, randomFile, TOKEN } from './helpers/engine-harness.ts';

let service: ServiceHandle;
before(async () => {
  service = await startService();
});
after(async () => {
  await service.stop();
});

test('two files of one relative folder are stored in one folder, asked for once', async () => {
  const client = createStoreClient({ baseUrl: service.url, getAccessToken: () => TOKEN });
  const root = (await client.files.create({ name: `root-${crypto.randomUUID()}`, mimeType: FOLDER_MIME })).id;
  const proxy = await startCountingProxy(service.url);
  const h = harness(service.url, {
    parentId: root,
    // No stall on a loaded machine may count as a lost create and send it again.
    stallTimeoutMs: 60_000,
    client: createStoreClient({ baseUrl: proxy.url, getAccessToken: () => TOKEN }),
  });
  try {
    await h.engine.add('t1', randomFile(2000, 'one.bin'), { relativePath: 'holiday/one.bin' });
    await h.engine.add('t2', randomFile(2000, 'two.bin'), { relativePath: 'holiday/two.bin' });
    const [one, two] = await Promise.all([h.engine.done('t1'), h.engine.done('t2')]);
    const folders = await client.files.list({ q: `'${root}' in parents`, fields: [{ files: ['id', 'name'] }] });
    assert.deepEqual(
      folders.files?.map((f) => f.name),
      ['holiday'],
    );
    const holiday = folders.files?.[0]?.id;
    const creates = proxy.requests.filter((r) => r.method === 'POST' && r.url.startsWith('/store/v3/files'));
    assert.equal(creates.length, 1, JSON.stringify(creates.map((r) => [r.url, r.status])));
    for (const stored of [one, two]) {
      assert.deepEqual((await client.files.get(stored.id, { fields: ['parents'] })).parents, [holiday]);
    }
  } finally {
    await h.engine.destroy();
    await proxy.close();
  }
});
