/**
 * Turns what the browser hands over (a drop, a paste, a file input) into `PickedFile`s with relative paths. A drop
 * is read at once, while the event lasts; its folders are walked by `walk-folders.ts`, which loads with the rest of
 * the dropzone's intake. Handles (`getAsFileSystemHandle`, Chromium) are preferred because a kept
 * `FileSystemFileHandle` lets an upload resume after a reload; `webkitGetAsEntry` is the fallback everywhere else.
 */
import type { PickedFile } from './picked-file.ts';
import { loadIntake } from './lazy-intake.ts';
import type { Collected, GrabbedItem } from './walk-folders.ts';

/** The parts of the File System Access API used here, which TypeScript's DOM lib does not fully declare. */
interface HandleItem {
  getAsFileSystemHandle?: () => Promise<FileSystemHandle | null>;
}

/**
 * Reads a `DataTransfer` synchronously (its items are gone once the event handler returns), then resolves the
 * files, descending into folders, and notes the empty folders of a drop (they hold no file to carry their path, yet
 * belong to the tree the user dropped).
 */
export function collectFromDataTransfer(data: DataTransfer): Promise<Collected> {
  const grabbed: GrabbedItem[] = [];
  for (const item of Array.from(data.items)) {
    if (item.kind !== 'file') continue;
    const withHandle = item as DataTransferItem & HandleItem;
    grabbed.push({
      file: item.getAsFile(),
      entry: typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null,
      handle:
        typeof withHandle.getAsFileSystemHandle === 'function'
          ? withHandle.getAsFileSystemHandle().catch(() => null)
          : null,
    });
  }
  if (grabbed.length === 0 && data.files.length > 0) {
    return Promise.resolve({ files: collectFromFileList(data.files), folders: [] });
  }
  return loadIntake().then(({ walkGrabbed }) => walkGrabbed(grabbed));
}

/** Files from an `<input type=file>` (with `webkitdirectory` the browser fills `webkitRelativePath`). */
export function collectFromFileList(files: FileList | readonly File[]): PickedFile[] {
  return Array.from(files, (file) => ({ file, relativePath: file.webkitRelativePath || file.name }));
}
