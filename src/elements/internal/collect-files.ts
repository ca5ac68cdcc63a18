/**
 * Turns what the browser hands over (a drop, a paste, a file input) into `PickedFile`s with relative paths,
 * walking dropped folders recursively. Handles (`getAsFileSystemHandle`, Chromium) are preferred because a kept
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
export function collectFromDataTransfer(data: DataTransfer): Promise<PickedFile[]> {
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
    return Promise.resolve(collectFromFileList(data.files));
  }
  return Promise.all(grabbed.map(resolveItem)).then((lists) => lists.flat());
}

async function resolveItem(item: GrabbedItem): Promise<PickedFile[]> {
  const handle = item.handle ? await item.handle : null;
  if (handle?.kind === 'directory') return collectFromHandle(handle as FileSystemDirectoryHandle);
  if (handle?.kind === 'file') {
    const file = item.file ?? (await (handle as FileSystemFileHandle).getFile());
    return [{ file, relativePath: file.name, handle: handle as FileSystemFileHandle }];
  }
  if (item.entry?.isDirectory) return collectFromEntry(item.entry as FileSystemDirectoryEntry, '');
  return item.file ? [{ file: item.file, relativePath: item.file.name }] : [];
}

/** Every file under a directory handle, with paths that start with the directory's own name. */
export async function collectFromHandle(dir: FileSystemDirectoryHandle, prefix = ''): Promise<PickedFile[]> {
  const base = `${prefix}${dir.name}/`;
  const out: PickedFile[] = [];
  for await (const child of (dir as IterableDirectoryHandle).values()) {
    if (child.kind === 'directory') out.push(...(await collectFromHandle(child as FileSystemDirectoryHandle, base)));
    else {
      const fileHandle = child as FileSystemFileHandle;
      out.push({ file: await fileHandle.getFile(), relativePath: base + child.name, handle: fileHandle });
    }
  }
  return out.sort(byPath);
}

/** Every file under a directory entry (the non-Chromium path); `readEntries` returns batches until empty. */
async function collectFromEntry(dir: FileSystemDirectoryEntry, prefix: string): Promise<PickedFile[]> {
  const base = `${prefix}${dir.name}/`;
  const reader = dir.createReader();
  const out: PickedFile[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) break;
    for (const entry of batch) {
      if (entry.isDirectory) out.push(...(await collectFromEntry(entry as FileSystemDirectoryEntry, base)));
      else {
        const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
        out.push({ file, relativePath: base + entry.name });
      }
    }
  }
  return out.sort(byPath);
}

/** Files from an `<input type=file>` (with `webkitdirectory` the browser fills `webkitRelativePath`). */
export function collectFromFileList(files: FileList | readonly File[]): PickedFile[] {
  return Array.from(files, (file) => ({ file, relativePath: file.webkitRelativePath || file.name }));
}

function byPath(a: PickedFile, b: PickedFile): number {
  return a.relativePath < b.relativePath ? -1 : a.relativePath > b.relativePath ? 1 : 0;
}
