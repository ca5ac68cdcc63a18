/**
 * Which thrown errors mean the service's storage failed (as opposed to a bug or a bad request): the disk or a quota
 * is full, a file grew past the filesystem's limit, the device failed, or SQLite could not write. Such a failure is
 * the service's, and it passes once space or the device comes back, so it is answered as retryable.
 */

/** errno codes of a refused or failed file write. */
const FILE_CODES = new Set(['ENOSPC', 'EDQUOT', 'EFBIG', 'EIO']);

/** Whether `e` is a storage failure: a file write refused (ENOSPC, EDQUOT, EFBIG, EIO) or SQLite unable to write. */
export function isStorageFailure(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  const code = (e as NodeJS.ErrnoException).code;
  if (typeof code !== 'string') return false;
  // better-sqlite3 names SQLite's extended result codes: SQLITE_FULL, SQLITE_IOERR_WRITE, SQLITE_IOERR_FSYNC …
  return FILE_CODES.has(code) || code === 'SQLITE_FULL' || code.startsWith('SQLITE_IOERR');
}
