import type { SessionRecord } from '../contract/ports.ts';

/**
 * `stored` with its kept copy as `file` where an earlier version wrote it as `blob`. The file's bytes were `blob` in
 * the engine and the session records before they took the page's name, `file` (issue 38); a version before the kept
 * copies' own database stored the copy inside the record (IndexedDB's `store-upload-kit`), and an app's own
 * `SessionStore` keeps records as it was given them. This is the one place that knows the old name.
 */
export function fileNamed(stored: SessionRecord & { blob?: Blob }): SessionRecord {
  if (stored.blob) {
    // Dropped: a record written back with it would copy the bytes into the record again at every chunk.
    stored.file ??= stored.blob;
    delete stored.blob;
  }
  return stored;
}
