import type { StoreError } from '../../client/index.ts';
import type { UploadErrorCode } from '../contract/types.ts';

/** The task error code for a final (not retried) service answer. */
export function errorCodeOf(error: StoreError, converting: boolean): UploadErrorCode {
  switch (error.status) {
    case 400:
      return converting && /conver/i.test(error.message) ? 'conversion' : 'bad-request';
    case 401:
      return 'auth';
    case 403:
      // The owner's storage is full: not the caller's rights, and not a rate limit, so neither retried nor "forbidden".
      return error.reason === 'storageQuotaExceeded' ? 'quota-exceeded' : 'forbidden';
    case 404:
      return 'not-found';
    case 413:
      return 'too-large';
    default:
      return 'unknown';
  }
}
