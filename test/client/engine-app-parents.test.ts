// Parents the app sets itself win over a file's relative path, against the real service over loopback: the file is
// stored in the app's folder and no folder of its path is made (issue 39's survivor of engine/place-file.ts, where
// only an update or app-set parents leave the options as they are).
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

test('a file with parents set by the app and a relative path is stored in the app’s folder; no path folder is made', async () => {
  const client = createStoreClient({ baseUrl: service.url, getAccessToken: () => TOKEN });
  const [target, pathRoot] = await Promise.all(
    ['app-folder', 'path-root'].map(async (name) => {
      const folder = await client.files.create({ name: `${name}-${crypto.randomUUID()}`, mimeType: FOLDER_MIME });
      return folder.id;
    }),
  );
  const h = harness(service.url, { parentId: pathRoot });
  const file = randomFile(2000);
  await h.engine.add('t1', file, { relativePath: 'made/by/path.bin', metadata: { parents: [target] } });
  const stored = await h.engine.done('t1');
  assert.deepEqual((await client.files.get(stored.id, { fields: ['parents'] })).parents, [target]);
  assert.deepEqual(await client.files.list({ q: `'${pathRoot}' in parents`, fields: [{ files: ['id'] }] }), {
    files: [],
  });
});
