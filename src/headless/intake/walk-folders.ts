/**
 * Walks what a drop or a folder picker gave into files with relative paths, descending into folders and noting the
 * empty ones. Part of the dropzone's intake (`intake.ts`): it loads at the first sign of intent, not with the page.
 */
import type { PickedFile } from './picked-file.ts';

/** What a drop holds: its files, and the paths of its empty folders (`photos/empty`). */
export interface Collected {
  files: PickedFile[];
  folders: string[];
}

/** What can still be read from one `DataTransferItem` after the event handler returns. */
export interface GrabbedItem {
  file: File | null;
  entry: FileSystemEntry | null;
  handle: Promise<FileSystemHandle | null> | null;
}

/** `values()` is in Chromium's handles but not in every TypeScript's DOM types (5.9 lacks it; 7 has it). */
type IterableDirectoryHandle = FileSystemDirectoryHandle & { values(): AsyncIterable<FileSystemHandle> };

/** The files of the items a drop held, with the paths of its empty folders. */
export async function walkGrabbed(grabbed: readonly GrabbedItem[]): Promise<Collected> {
  const folders: string[] = [];
  const lists = await Promise.all(grabbed.map((item) => resolveItem(item, folders)));
  return { files: lists.flat(), folders: folders.sort() };
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
export async function collectFromHandle(
  dir: FileSystemDirectoryHandle,
  prefix = '',
  emptyFolders?: string[],
): Promise<PickedFile[]> {
  const base = `${prefix}${dir.name}/`;
  const out: PickedFile[] = [];
  let empty = true;
  for await (const child of (dir as IterableDirectoryHandle).values()) {
    empty = false;
    if (child.kind === 'directory')
      out.push(...(await collectFromHandle(child as FileSystemDirectoryHandle, base, emptyFolders)));
    else {
      const fileHandle = child as FileSystemFileHandle;
      out.push({ file: await fileHandle.getFile(), relativePath: base + child.name, handle: fileHandle });
    }
  }
  if (empty) emptyFolders?.push(base.slice(0, -1));
  return out.sort(byPath);
}

/** Every file under a directory entry (the non-Chromium path); `readEntries` returns batches until empty. */
async function collectFromEntry(
  dir: FileSystemDirectoryEntry,
  prefix: string,
  emptyFolders: string[],
): Promise<PickedFile[]> {
  const base = `${prefix}${dir.name}/`;
  const reader = dir.createReader();
  const out: PickedFile[] = [];
  let empty = true;
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) break;
    empty = false;
    for (const entry of batch) {
      if (entry.isDirectory)
        out.push(...(await collectFromEntry(entry as FileSystemDirectoryEntry, base, emptyFolders)));
      else {
        const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
        out.push({ file, relativePath: base + entry.name });
      }
    }
  }
  if (empty) emptyFolders.push(base.slice(0, -1));
  return out.sort(byPath);
}

function byPath(a: PickedFile, b: PickedFile): number {
  return a.relativePath < b.relativePath ? -1 : a.relativePath > b.relativePath ? 1 : 0;
}
