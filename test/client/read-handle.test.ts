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

/**
 * A handle as Chromium gives one kept from an earlier page life: its read permission is `prompt` until asked for, and
 * its file cannot be read before it is granted (NotAllowedError).
 */
function chromiumHandleOf(file: File): { handle: FileSystemFileHandle; asked: () => number } {
  let state: PermissionState = 'prompt';
  let asked = 0;
  const handle = {
    kind: 'file',
    name: file.name,
    queryPermission: () => Promise.resolve(state),
    requestPermission: () => {
      asked++;
      state = 'granted';
      return Promise.resolve(state);
    },
    getFile: () =>
      state === 'granted'
        ? Promise.resolve(file)
        : Promise.reject(Object.assign(new Error('not allowed'), { name: 'NotAllowedError' })),
  } as unknown as FileSystemFileHandle;
  return { handle, asked: () => asked };
}

test('a handle whose permission is still to ask for (Chromium): read permission is asked once, then its file is read', async () => {
  const file = new File(['kept in chromium'], 'chromium.txt', { type: 'text/plain' });
  const { handle, asked } = chromiumHandleOf(file);
  const read = await readHandle(handle);
  assert.equal(await read.text(), 'kept in chromium');
  assert.equal(asked(), 1);
  // Granted now: read again without asking.
  assert.equal(await (await readHandle(handle)).text(), 'kept in chromium');
  assert.equal(asked(), 1);
});

test('a handle whose read fails with no error at all rejects with that, not with an error of its own', async () => {
  for (const reason of [undefined, null]) {
    const failing = handleOf(() => Promise.reject(reason as unknown as Error));
    let caught: unknown = 'not rejected';
    await readHandle(failing).catch((error: unknown) => (caught = error));
    assert.equal(caught, reason);
  }
});
