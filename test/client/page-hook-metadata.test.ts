// Metadata the `beforeUpload` hook answers (src/uploader/page/before-upload.ts), through the page uploader in Node
// against the real service: it joins the metadata the add was given, and the file is stored with both.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TOKEN } from './helpers/engine-harness.ts';
import { pageSuite, seededFile } from './helpers/page-uploader.ts';

const suite = pageSuite();

test('metadata from the hook joins the add’s own, and the file is stored with both', async () => {
  const p = suite.page({ beforeUpload: () => ({ metadata: { description: 'from the hook' } }) });
  const task = p.uploader.add(seededFile(1000, 44, 'described.bin'), {
    metadata: { originalFilename: 'from-the-add.bin' },
  });
  const stored = await task.done;
  const res = await fetch(`${suite.service.url}/store/v3/files/${stored.id}?fields=name,description,originalFilename`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  assert.deepEqual(await res.json(), {
    name: 'described.bin',
    description: 'from the hook',
    originalFilename: 'from-the-add.bin',
  });
});
