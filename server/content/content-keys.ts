/**
 * Content keys: the name of a stored object, its path under the content backend's root (the data folder, or the
 * bucket's prefix). This version writes under `content/`; content written before schema 5 stays under `blobs/`
 * (read, removed and swept where it is, never written), since an object store cannot rename an object and a
 * multipart upload in progress keeps the key it was begun with.
 */
import { randomBytes } from 'node:crypto';

/** The directory (disk) and key prefix (bucket) of the content this version writes. */
export const CONTENT_DIR = 'content';
/** Where content written before schema 5 stays. */
export const LEGACY_DIR = 'blobs';
/** Both, newest first: what reads, removals and sweeps cover. */
export const CONTENT_DIRS: readonly string[] = [CONTENT_DIR, LEGACY_DIR];

/** A fresh key for new content. */
export function newContentKey(): string {
  return `${CONTENT_DIR}/c-${Date.now().toString(36)}-${randomBytes(8).toString('hex')}`;
}

/** The key a resumable session's bytes get when it completes (lets recovery find them). */
export function sessionContentKey(id: string): string {
  return `${CONTENT_DIR}/u-${id}`;
}

/** The key the previous version gave a completed session (recovery of a completion it began). */
export function legacySessionKey(id: string): string {
  return `${LEGACY_DIR}/u-${id}`;
}

const KEY = /^(content|blobs)\/[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/** Returns `key` when it names an object in one of the content directories; throws otherwise (never a path elsewhere). */
export function checkContentKey(key: string): string {
  if (!KEY.test(key)) throw new Error(`not a content key: "${key}"`);
  return key;
}
