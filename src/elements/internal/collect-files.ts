/**
 * Turns what the browser hands over (a drop, a paste, a file input) into `PickedFile`s with relative paths,
 * walking dropped folders recursively, and notes the empty folders of a drop (they hold no file to carry their
 * path, yet belong to the tree the user dropped). Handles (`getAsFileSystemHandle`, Chromium) are preferred because a kept
 * `FileSystemFileHandle` lets an upload resume after a reload; `webkitGetAsEntry` is the fallback everywhere else.
 */
import type { PickedFile } from '../events.ts';

/** The parts of the File System Access API used here, which TypeScript's DOM lib does not fully declare. */
interface HandleItem {
  getAsFileSystemHandle?: () => Promise<FileSystemHandle | null>;
}
interface IterableDirectoryHandle extends FileSystemDirectoryHandle {
  values(): AsyncIterable<FileSystemHandle>;
}

/** What a drop holds: its files, and the paths of its empty folders (`photos/empty`). */
export interface Collected {
  files: PickedFile[];
  folders: string[];
}

/** What can still be read from one `DataTransferItem` after the event handler returns. */
interface GrabbedItem {
  file: File | null;
  entry: FileSystemEntry | null;
  handle: Promise<FileSystemHandle | null> | null;
}

/**
 * Reads a `DataTransfer` synchronously (its items are gone once the event handler returns), then resolves the
 * files, descending into folders.
 */
export function collectFromDataTransfer(data: DataTransfer): Promise<Collected> {
  const grabbed: GrabbedItem[] = [];
  for (const item of Array.from(data.items)) {
    if (item.kind !== 'file') continue;
    const withHandle = item as DataTransferItem & HandleItem;
    grabbed.push({
      file: item.getAsFile(),
      entry: typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null,
      handle: typeof withHandle.getAsFileSystemHandle === 'function' ? withHandle.getAsFileSystemHandle().catch(() => null) : null,
    });
  }
  if (grabbed.length === 0 && data.files.length > 0) {
    return Promise.resolve({ files: collectFromFileList(data.files), folders: [] });
  }
  const folders: string[] = [];
  return Promise.all(grabbed.map((item) => resolveItem(item, folders))).then((lists) => ({ files: lists.flat(), folders: folders.sort() }));
}

async function resolveItem(item: GrabbedItem, emptyFolders: string[]): Promise<PickedFile[]> {
  const handle = item.handle ? await item.handle : null;
  if (handle?.kind === 'directory') return collectFromHandle(handle as FileSystemDirectoryHandle, '', emptyFolders);
  if (handle?.kind === 'file') {
    const file = item.file ?? (await (handle as FileSystemFileHandle).getFile());
    return [{ file, relativePath: file.name, handle: handle as FileSystemFileHandle }];
  }
  if (item.entry?.isDirectory) return collectFromEntry(item.entry as FileSystemDirectoryEntry, '', emptyFolders);
  return item.file ? [{ file: item.file, relativePath: item.file.name }] : [];
}

/**
 * Every file under a directory handle, with paths that start with the directory's own name. The paths of folders
 * with nothing in them are pushed to `emptyFolders` when given.
 */
export async function collectFromHandle(dir: FileSystemDirectoryHandle, prefix = '', emptyFolders?: string[]): Promise<PickedFile[]> {
  const base = `${prefix}${dir.name}/`;
  const out: PickedFile[] = [];
  let empty = true;
  for await (const child of (dir as IterableDirectoryHandle).values()) {
    empty = false;
    if (child.kind === 'directory') out.push(...(await collectFromHandle(child as FileSystemDirectoryHandle, base, emptyFolders)));
    else {
      const fileHandle = child as FileSystemFileHandle;
      out.push({ file: await fileHandle.getFile(), relativePath: base + child.name, handle: fileHandle });
    }
  }
  if (empty) emptyFolders?.push(base.slice(0, -1));
  return out.sort(byPath);
}

/** Every file under a directory entry (the non-Chromium path); `readEntries` returns batches until empty. */
async function collectFromEntry(dir: FileSystemDirectoryEntry, prefix: string, emptyFolders: string[]): Promise<PickedFile[]> {
  const base = `${prefix}${dir.name}/`;
  const reader = dir.createReader();
  const out: PickedFile[] = [];
  let empty = true;
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) break;
    empty = false;
    for (const entry of batch) {
      if (entry.isDirectory) out.push(...(await collectFromEntry(entry as FileSystemDirectoryEntry, base, emptyFolders)));
      else {
        const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
        out.push({ file, relativePath: base + entry.name });
      }
    }
  }
  if (empty) emptyFolders.push(base.slice(0, -1));
  return out.sort(byPath);
}

/** Files from an `<input type=file>` (with `webkitdirectory` the browser fills `webkitRelativePath`). */
export function collectFromFileList(files: FileList | readonly File[]): PickedFile[] {
  return Array.from(files, (file) => ({ file, relativePath: file.webkitRelativePath || file.name }));
}

function byPath(a: PickedFile, b: PickedFile): number {
  return a.relativePath < b.relativePath ? -1 : a.relativePath > b.relativePath ? 1 : 0;
}
