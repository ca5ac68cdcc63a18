/** The JSON error body of the store service (supplement §7) and helpers to build and read it. */

/** The error reasons the service uses, by status. */
export type ErrorReason =
  | 'required'
  | 'authError'
  | 'invalidParameter'
  | 'badRequest'
  | 'parseError'
  | 'insufficientFilePermissions'
  | 'userRateLimitExceeded'
  | 'rateLimitExceeded'
  | 'storageQuotaExceeded'
  | 'forbidden'
  | 'fileNotDownloadable'
  | 'notFound'
  | 'methodNotAllowed'
  | 'fileIdInUse'
  | 'requestTooLarge'
  | 'unsupportedMediaType'
  | 'headersTooLarge'
  | 'channelIdNotUnique'
  | 'push.webhookUrlNotHttps'
  | 'push.webhookUrlUnauthorized'
  | 'backendError';

/** Error domains: `usageLimits` for rate limits and the storage quota (as the modelled API), `global` for the rest. */
export type ErrorDomain = 'global' | 'usageLimits';

/** One entry of `error.errors`. */
export interface ErrorItem {
  message: string;
  domain: string;
  reason: string;
  location?: string;
  locationType?: string;
}

/** The whole error body. */
export interface ErrorBody {
  error: {
    code: number;
    message: string;
    errors: ErrorItem[];
  };
}

/** Optional parts of an error: where the problem is (a parameter or header name). */
export interface ErrorLocation {
  location?: string;
  locationType?: 'parameter' | 'header' | 'body';
  domain?: ErrorDomain;
}

/** The domain a reason belongs to. */
export function domainOf(reason: string): ErrorDomain {
  return USAGE_LIMIT_REASONS.has(reason) ? 'usageLimits' : 'global';
}

const USAGE_LIMIT_REASONS = new Set(['userRateLimitExceeded', 'rateLimitExceeded', 'storageQuotaExceeded']);

/** Builds the error body for a status, reason and message. */
export function errorBody(
  code: number,
  // eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents -- names the known reasons for readers; any string is allowed.
  reason: ErrorReason | string,
  message: string,
  where: ErrorLocation = {},
): ErrorBody {
  const item: ErrorItem = { message, domain: where.domain ?? domainOf(reason), reason };
  if (where.location !== undefined) item.location = where.location;
  if (where.locationType !== undefined) item.locationType = where.locationType;
  return { error: { code, message, errors: [item] } };
}

/** Reads an error body from parsed JSON; `undefined` when the value does not have its shape. */
export function readErrorBody(value: unknown): ErrorBody | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const error = (value as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message, errors } = error as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof code !== 'number' || typeof message !== 'string' || !Array.isArray(errors)) return undefined;
  return value as ErrorBody;
}

/** The first reason of an error body, if any. */
export function reasonOf(body: ErrorBody | undefined): string | undefined {
  return body?.error.errors[0]?.reason;
}

/** Canonical messages shared by client and service. */
export const MESSAGES = {
  loginRequired: 'Login Required.',
  invalidCredentials: 'Invalid Credentials',
  fileNotFound: (id: string) => `File not found: ${id}.`,
  fileIdInUse: 'A file already exists with the provided ID.',
  fileIdNotUsable: 'The provided file ID is not usable.',
  generatedIdsNotSupported: 'Generated IDs are not supported for Docs Editors formats.',
  insufficientPermissions: 'The user does not have sufficient permissions for this file.',
  rateLimit: 'User rate limit exceeded.',
  contentRangeUnparsable: 'Failed to parse Content-Range header.',
  offsetGap: (offset: number, stored: number) =>
    `the upload offset is ${offset} byte(s), which exceeds already uploaded size of ${stored} byte(s)`,
  fileNotDownloadable: 'Only files with binary content can be downloaded. Use Export with Docs Editors files.',
} as const;
