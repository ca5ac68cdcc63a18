/** The service's error type: thrown anywhere, turned into the JSON (or plain-text) error answer by dispatch. */
import {
  errorBody,
  type ErrorLocation,
  type ErrorReason,
  JSON_CONTENT_TYPE,
  MESSAGES,
  TEXT_CONTENT_TYPE,
} from 'store-upload-kit/protocol';
import type { ApiResponse } from './api-request.ts';

/** An error with an HTTP status, a reason (supplement §7) and a message that says what was wrong. */
export class ApiError extends Error {
  readonly status: number;
  // eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents -- names the known reasons for readers; any string is allowed.
  readonly reason: ErrorReason | string;
  readonly where: ErrorLocation;
  /** Upload-protocol errors are `text/plain` (supplement §1). */
  readonly plainText: boolean;
  /** Extra response headers (e.g. `Allow` on a 405). */
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    // eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents -- names the known reasons for readers; any string is allowed.
    reason: ErrorReason | string,
    message: string,
    options: { where?: ErrorLocation; plainText?: boolean; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.reason = reason;
    this.where = options.where ?? {};
    this.plainText = options.plainText ?? false;
    this.headers = options.headers ?? {};
  }

  /** The response this error answers with. */
  toResponse(): ApiResponse {
    if (this.plainText) {
      return {
        status: this.status,
        headers: { 'Content-Type': TEXT_CONTENT_TYPE, ...this.headers },
        body: this.message,
      };
    }
    const body = JSON.stringify(errorBody(this.status, this.reason, this.message, this.where));
    return { status: this.status, headers: { 'Content-Type': JSON_CONTENT_TYPE, ...this.headers }, body };
  }
}

/** 400 `invalidParameter` for a query parameter. */
export function badParameter(name: string, message: string): ApiError {
  return new ApiError(400, 'invalidParameter', message, { where: { location: name, locationType: 'parameter' } });
}

/** 400 `badRequest`. */
export function badRequest(message: string): ApiError {
  return new ApiError(400, 'badRequest', message);
}

/** 404 `notFound` "File not found: <id>." — also for files the caller cannot see. */
export function fileNotFound(fileId: string): ApiError {
  return new ApiError(404, 'notFound', MESSAGES.fileNotFound(fileId), {
    where: { location: 'fileId', locationType: 'parameter' },
  });
}

/** 403 `insufficientFilePermissions`. */
export function insufficientPermissions(): ApiError {
  return new ApiError(403, 'insufficientFilePermissions', MESSAGES.insufficientPermissions);
}

/** A plain-text upload-protocol error (supplement §1). */
export function uploadProtocolError(status: number, message: string): ApiError {
  return new ApiError(status, status === 503 ? 'backendError' : 'badRequest', message, { plainText: true });
}

/**
 * 503 for a request on a resumable session that a newer request superseded: it wrote only whole blocks before it
 * was ended, and a retry (status query, then resume) continues from what is stored. Plain text, as the upload
 * protocol's errors; `Connection: close`, since the rest of its body is discarded.
 */
export function supersededError(): ApiError {
  return new ApiError(
    503,
    'backendError',
    'A newer request for this upload session arrived, so this one was ended; its whole 256 KiB blocks are kept. Query the upload status (Content-Range: bytes */*) and resume from the range it reports.',
    { plainText: true, headers: { Connection: 'close' } },
  );
}
