// The `beforeUpload` hook's less common answers, through the page uploader in Node against the real service: a
// conversion the hook asks for is listed at once and stored converted; a hook error with no message, an empty name
// and metadata that is not an object are refusals with readable reasons (issue 39's mutants of page/hooked-add.ts
// and page/before-upload.ts), and a cancel given while the hook decides is held for the add (page/add-batch.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SPREADSHEET_MIME } from '../../src/protocol/native.ts';
import { UploadError } from '../../src/uploader/contract/upload-error.ts';
import type { BeforeUpload } from '../../src/uploader/contract/types.ts';
import { TOKEN } from './helpers/engine-harness.ts';
import { pageSuite, seededFile } from './helpers/page-uploader.ts';

const suite = pageSuite();

function page(beforeUpload: BeforeUpload) {
  return suite.page({ beforeUpload });
}

test('a hook that asks for a conversion: the list shows it when the file is handed over, and the file is stored converted', async () => {
  const p = page(() => ({ convertTo: SPREADSHEET_MIME }));
  const handedOver: (string | undefined)[] = [];
  const addMany = p.service.addMany.bind(p.service);
  p.service.addMany = (requests, token) => {
    handedOver.push(...p.uploader.snapshot.tasks.map((t) => t.convertTo));
    return addMany(requests, token);
  };
  const csv = new File(['a,b\n1,2\n'], 'cells.csv', { type: 'text/csv', lastModified: 1_700_000_000_000 });
  const task = p.uploader.add(csv);
  const stored = await task.done;
  assert.deepEqual(handedOver, [SPREADSHEET_MIME]);
  assert.equal(task.snapshot.convertTo, SPREADSHEET_MIME);
  const res = await fetch(`${suite.service.url}/store/v3/files/${stored.id}?fields=mimeType`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  assert.deepEqual(await res.json(), { mimeType: SPREADSHEET_MIME });
});

test('a hook error with no message, an empty name or metadata that is not an object: refused, saying why', async () => {
  const p = page((file) => {
    if (file.name === 'silent.bin') throw new Error('');
    if (file.name === 'empty-name.bin') return { name: '' };
    if (file.name === 'text-metadata.bin') return { metadata: 'starred' } as never;
    return undefined;
  });
  const silent = p.uploader.add(seededFile(10, 21, 'silent.bin'));
  const emptyName = p.uploader.add(seededFile(10, 22, 'empty-name.bin'));
  const textMetadata = p.uploader.add(seededFile(10, 23, 'text-metadata.bin'));
  const ids = [silent.id, emptyName.id, textMetadata.id];
  for (const task of [silent, emptyName, textMetadata])
    await assert.rejects(task.done, (e: unknown) => e instanceof UploadError && e.code === 'rejected');
  // The hooks of one turn run side by side: each refusal is judged by its task, not by the order they end in.
  const rejects = p.of('reject');
  assert.deepEqual(
    rejects.map((r) => [r.taskId, r.reason, r.message]).sort((a, b) => ids.indexOf(a[0]!) - ids.indexOf(b[0]!)),
    [
      [silent.id, 'hook-error', 'beforeUpload threw an error'],
      [
        emptyName.id,
        'hook-error',
        'beforeUpload must return false, a File or Blob, or { name, metadata, convertTo }; got {"name":""}',
      ],
      [
        textMetadata.id,
        'hook-error',
        'beforeUpload must return false, a File or Blob, or { name, metadata, convertTo }; got {"metadata":"starred"}',
      ],
    ],
  );
  assert.deepEqual(p.uploader.snapshot.tasks, [], 'each refused file left the list');
});

test('a cancel given while the hook decides is held for the add: the task ends cancelled and nothing is stored', async () => {
  let decide: () => void = () => undefined;
  const decided = new Promise<void>((resolve) => (decide = resolve));
  const p = page(async () => {
    await decided;
    return undefined;
  });
  const file = seededFile(3000, 24, 'held-cancel.bin');
  const task = p.uploader.add(file);
  assert.doesNotThrow(() => task.cancel(), 'a command before the add is posted is held, not sent to no engine');
  decide();
  await assert.rejects(task.done, (e: unknown) => e instanceof UploadError && e.code === 'cancelled');
  const res = await fetch(
    `${suite.service.url}/store/v3/files?q=${encodeURIComponent(`name = '${file.name}'`)}&fields=files(id)`,
    { headers: { authorization: `Bearer ${TOKEN}` } },
  );
  assert.deepEqual(await res.json(), { files: [] });
});
