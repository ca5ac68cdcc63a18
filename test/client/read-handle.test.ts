// Reading a kept file handle (uploader/page/read-handle.ts) as Firefox and WebKit give one: their
// FileSystemFileHandle has no queryPermission or requestPermission (only Chromium's has), and its file is read as is.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { askToRead, readHandle } from '../../src/uploader/page/read-handle.ts';
import { UploadError } from '../../src/uploader/contract/upload-error.ts';

/** A handle of a browser without the permission calls: a name and its file. */
function handleOf(file: () => Promise<File>, name = 'kept.txt'): FileSystemFileHandle {
  return { kind: 'file', name, getFile: file } as unknown as FileSystemFileHandle;
}

test('a handle without permission calls gives its file, with no permission asked', async () => {
  const file = new File(['kept bytes'], 'kept.txt', { type: 'text/plain' });
  const handle = handleOf(() => Promise.resolve(file));
  assert.equal(await askToRead(handle), true);
  const read = await readHandle(handle);
  assert.equal(await read.text(), 'kept bytes');
  assert.equal(read.name, 'kept.txt');
});

test('a handle whose file is gone is file-changed, naming the file', async () => {
  const gone = Object.assign(new Error('gone'), { name: 'NotFoundError' });
  await assert.rejects(
    readHandle(handleOf(() => Promise.reject(gone), 'moved.txt')),
    (error: unknown) =>
      error instanceof UploadError && error.code === 'file-changed' && error.message.includes('moved.txt'),
  );
});
