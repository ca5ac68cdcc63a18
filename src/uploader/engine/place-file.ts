import type { AddOptions } from '../contract/types.ts';

/** Creates (once) the folders of a path under a target and resolves with the deepest one's ID. */
export type FolderOf = (path: string, target: string | undefined) => Promise<string>;

/**
 * The options an upload is sent with once its folder is known: `metadata.parents` is the folder of its relative
 * path (or the target alone when flattening or when the path has no folder). Parents the app set itself, and
 * updates of an existing file, are left as they are. `signal` ends the wait, not a create other uploads share.
 */
export async function placeFile(options: AddOptions, folderOf: FolderOf, signal: AbortSignal): Promise<AddOptions> {
  if (options.updateFileId || options.metadata?.parents !== undefined) return options;
  const folders = options.flatten ? [] : segmentsOf(options.relativePath ?? '').slice(0, -1);
  const parent =
    folders.length > 0 ? await untilAborted(folderOf(folders.join('/'), options.parentId), signal) : options.parentId;
  return parent === undefined ? options : { ...options, metadata: { ...options.metadata, parents: [parent] } };
}

/** The non-empty names of a slash-separated path. */
function segmentsOf(path: string): string[] {
  return path.split('/').filter((name) => name !== '');
}

/** `promise`, or a rejection with the signal's reason as soon as it aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
