import type { UploadErrorCode, UploadErrorInfo } from './types.ts';

/** The error a task's `done` promise rejects with: a machine-readable `code` plus the service's status and reason. */
export class UploadError extends Error implements UploadErrorInfo {
  readonly code: UploadErrorCode;
  readonly status?: number;
  readonly reason?: string;

  constructor(info: UploadErrorInfo) {
    super(info.message);
    this.name = 'UploadError';
    this.code = info.code;
    if (info.status !== undefined) this.status = info.status;
    if (info.reason !== undefined) this.reason = info.reason;
  }

  /** Plain data that crosses the worker boundary (structured clone drops class identity). */
  toJSON(): UploadErrorInfo {
    const info: UploadErrorInfo = { code: this.code, message: this.message };
    if (this.status !== undefined) info.status = this.status;
    if (this.reason !== undefined) info.reason = this.reason;
    return info;
  }
}

/**
 * Any failure as plain data that crosses threads: an `UploadError` as it is, anything else as `unknown` with its
 * message. The one conversion every thread uses (the job's failure, the worker's answers, the page's own failures).
 */
export function errorInfoOf(error: unknown): UploadErrorInfo {
  if (error instanceof UploadError) return error.toJSON();
  return { code: 'unknown', message: String((error as Error | undefined)?.message ?? error) };
}
