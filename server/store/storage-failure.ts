/**
 * Which thrown errors mean the service's storage failed (as opposed to a bug or a bad request): the disk or a quota
 * is full, a file grew past the filesystem's limit, the device failed, or SQLite could not write. Such a failure is
 * the service's, and it passes once space or the device comes back, so it is answered as retryable.
 */

import { ApiError } from '../errors.ts';

/** Seconds a client is asked to wait before retrying after a storage failure (space rarely returns at once). */
const STORAGE_RETRY_AFTER_S = 5;

/** errno codes of a refused or failed file write. */
const FILE_CODES = new Set(['ENOSPC', 'EDQUOT', 'EFBIG', 'EIO']);

/** Whether `e` is a storage failure: a file write refused (ENOSPC, EDQUOT, EFBIG, EIO) or SQLite unable to write. */
export function isStorageFailure(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  const code = (e as NodeJS.ErrnoException).code;
  if (typeof code !== 'string') return false;
  // better-sqlite3 names SQLite's extended result codes: SQLITE_FULL, SQLITE_IOERR_WRITE, SQLITE_IOERR_FSYNC …
  // DB_UNAVAILABLE: the PostgreSQL backend could not reach its database (`metadata/postgres-metadata.ts`).
  return (
    FILE_CODES.has(code) ||
    code === 'SQLITE_FULL' ||
    code.startsWith('SQLITE_IOERR') ||
    code === 'DB_UNAVAILABLE' ||
    code === 'DB_BUSY'
  );
}

/**
 * The answer to a storage failure: `503 backendError` with `Retry-After`. 503 because spec §7 has the client resume
 * (after a status query) or retry with backoff, which the kit and Google's clients do for 5xx; a 507 is retried by
 * neither. The session keeps its whole written blocks, so a resume loses and duplicates nothing.
 */
export function storageFailureError(e: unknown): ApiError {
  const code = (e as NodeJS.ErrnoException).code ?? '';
  const what =
    code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL'
      ? 'The service is out of storage space'
      : code === 'EFBIG'
        ? "The file is larger than the service's storage can hold"
        : code === 'DB_UNAVAILABLE'
          ? "The service's database is unreachable"
          : code === 'DB_BUSY'
            ? 'Another request holds this upload on another node'
            : 'The service could not write to its storage';
  return new ApiError(503, 'backendError', `${what} (${code}); nothing partial was kept. Retry later.`, {
    headers: { 'Retry-After': String(STORAGE_RETRY_AFTER_S) },
  });
}
