/**
 * One file a user handed over (a drop, a paste, a picker, a file input), as every intake of the kit gives it: the
 * dropzone element and the headless drop target alike, so a headless app keeps folders and file handles too.
 */
import type { AddOptions, FileMetadata } from '../../uploader/index.ts';

/** One file the user handed over, with where it came from. */
export interface PickedFile {
  file: File;
  /** Path inside a dropped or chosen folder (`photos/2024/a.jpg`); the file name for loose files. */
  relativePath: string;
  /** Kept when the browser offers one, so an upload can resume after a reload without choosing the file again. */
  handle?: FileSystemFileHandle;
  /** Metadata a `beforeUpload` hook asked for, sent with the file. */
  metadata?: FileMetadata;
  /** A conversion a `beforeUpload` hook asked for; it wins over the element's own choice. */
  convertTo?: string;
}

/**
 * Why a file was not accepted: a restriction it broke (`type`, `size`, `min-size`, `total-size`, `count`,
 * `multiple`), or the `beforeUpload` hook (`skipped`: it returned `false`; `hook-error`: it threw).
 */
export type RejectReason =
  'type' | 'size' | 'min-size' | 'total-size' | 'count' | 'multiple' | 'skipped' | 'hook-error';

/** One refused file and why. */
export interface RejectedFile extends PickedFile {
  reason: RejectReason;
  /** For `hook-error`: the message of the error the hook threw. */
  message?: string;
}

/** What `uploader.add` is given for a picked file. */
export function addOptionsOf(picked: PickedFile): AddOptions {
  return {
    ...(picked.relativePath !== picked.file.name && { relativePath: picked.relativePath }),
    ...(picked.handle && { handle: picked.handle }),
    ...(picked.metadata && { metadata: picked.metadata }),
    ...(picked.convertTo && { convertTo: picked.convertTo }),
  };
}
