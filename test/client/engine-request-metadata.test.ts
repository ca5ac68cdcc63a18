// The metadata an upload is created with, against the real service over loopback: a name the app set in the
// add's metadata is the stored file's name, not the picked file's, in a multipart and in a resumable upload (issue
// 39's mutant of engine/request-metadata.ts, the name taken from the file only when the app gave none).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { download, filesNamed, harness, md5, randomFile } from './helpers/engine-harness.ts';

const KiB = 1024;

let service: ServiceHandle;
before(async () => {
  service = await startService();
});
after(async () => {
  await service.stop();
});

for (const strategy of ['multipart', 'resumable'] as const) {
  test(`a ${strategy} upload whose metadata names the file is stored under that name, not the picked file's`, async () => {
    const h = harness(service.url, { resumableThreshold: strategy === 'resumable' ? 0 : 8 * 1024 * KiB });
    const file = randomFile(300 * KiB);
    const chosen = `chosen-${strategy}-${file.name}`;
    await h.engine.add('t1', file, { metadata: { name: chosen } });
    assert.equal(h.engine.snapshot('t1')?.strategy, strategy);
    const stored = await h.engine.done('t1');
    assert.equal(stored.name, chosen);
    assert.deepEqual(await filesNamed(service.url, file.name), [], 'nothing is stored under the picked name');
    assert.deepEqual(
      (await filesNamed(service.url, chosen)).map((f) => f.id),
      [stored.id],
    );
    assert.equal(md5(await download(service.url, stored.id)), md5(file.bytes));
  });
}
