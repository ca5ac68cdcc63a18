// The `beforeUpload` hook answering with a Blob (a plain one, not a File: an edited image, a compressed copy), and
// with a value that cannot even be written out, through the page uploader in Node against the real service; and an
// uploader event listener that is removed hears nothing more.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UploadError } from '../../src/uploader/contract/upload-error.ts';
import type { BeforeUpload } from '../../src/uploader/contract/types.ts';
import { download, TOKEN } from './helpers/engine-harness.ts';
import { pageSuite, seededFile } from './helpers/page-uploader.ts';

const suite = pageSuite();

function page(beforeUpload: BeforeUpload) {
  return suite.page({ beforeUpload });
}

async function mimeTypeOf(id: string): Promise<string> {
  const res = await fetch(`${suite.service.url}/store/v3/files/${id}?fields=name,mimeType`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  return ((await res.json()) as { mimeType: string }).mimeType;
}

test('a hook answering a Blob: its bytes are stored under the file’s name, with its own type or else the file’s', async () => {
  const p = page((file) =>
    file.name === 'typed.txt' ? new Blob(['replaced, typed'], { type: 'text/csv' }) : new Blob(['replaced, untyped']),
  );
  const typed = p.uploader.add(new File(['original one'], 'typed.txt', { type: 'text/plain' }));
  const untyped = p.uploader.add(new File(['original two'], 'untyped.txt', { type: 'text/plain' }));
  const [a, b] = await Promise.all([typed.done, untyped.done]);
  assert.equal(a.name, 'typed.txt');
  assert.equal(b.name, 'untyped.txt');
  assert.equal((await download(suite.service.url, a.id)).toString(), 'replaced, typed');
  assert.equal((await download(suite.service.url, b.id)).toString(), 'replaced, untyped');
  assert.equal(await mimeTypeOf(a.id), 'text/csv');
  assert.equal(await mimeTypeOf(b.id), 'text/plain', 'a Blob without a type keeps the file’s');
});

test('a hook answering something that cannot be written as JSON is refused, naming its type', async () => {
  const p = page(() => 10n as never);
  const task = p.uploader.add(seededFile(10, 51, 'bigint.bin'));
  await assert.rejects(task.done, (e: unknown) => e instanceof UploadError && e.code === 'rejected');
  const [reject] = p.of('reject');
  assert.equal(
    reject?.message,
    'beforeUpload must return false, a File or Blob, or { name, metadata, convertTo }; got bigint',
  );
});

test('a removed event listener hears nothing more', async () => {
  const p = page(() => undefined);
  const heard: string[] = [];
  const listener = (event: Event) => heard.push((event as CustomEvent<{ name: string }>).detail.name);
  p.uploader.addEventListener('add', listener);
  await p.uploader.add(seededFile(10, 52, 'heard.bin')).done;
  p.uploader.removeEventListener('add', listener);
  await p.uploader.add(seededFile(10, 53, 'not-heard.bin')).done;
  assert.deepEqual(heard, ['heard.bin']);
});
