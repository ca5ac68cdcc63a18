import { UploadError } from '../contract/upload-error.ts';

/** The permission calls of a kept handle, which TypeScript's DOM lib does not declare. */
type PermissionHandle = FileSystemFileHandle & {
  queryPermission?: (d: { mode: 'read' }) => Promise<PermissionState>;
  requestPermission?: (d: { mode: 'read' }) => Promise<PermissionState>;
};

/**
 * Asks for read permission on a kept handle; true once it is granted. Call it before awaiting anything inside a
 * click: browsers show the prompt only during a user gesture (a handle already granted, like OPFS's, answers at once).
 */
export async function askToRead(handle: FileSystemFileHandle): Promise<boolean> {
  const h = handle as PermissionHandle;
  try {
    return !h.requestPermission || (await h.requestPermission({ mode: 'read' })) === 'granted';
  } catch {
    return false;
  }
}

/**
 * The file behind a kept handle, asking for read permission once if the browser wants it (that needs a user
 * gesture). A file that is gone is `file-changed`.
 */
export async function readHandle(handle: FileSystemFileHandle): Promise<File> {
  const h = handle as PermissionHandle;
  try {
    if ((await h.queryPermission?.({ mode: 'read' })) === 'prompt') await h.requestPermission?.({ mode: 'read' });
    return await handle.getFile();
  } catch (error) {
    if ((error as Error)?.name !== 'NotFoundError') throw error;
    throw new UploadError({ code: 'file-changed', message: `${handle.name} is gone since its upload began` });
  }
}
