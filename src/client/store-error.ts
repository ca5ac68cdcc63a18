import { isRetryableStatus } from '../protocol/backoff.ts';
import { readErrorBody, type ErrorBody } from '../protocol/errors.ts';

/**
 * A call the service answered with an error, or that never got an answer. `status` is the HTTP status (0 when no
 * response arrived); `reason` and `domain` come from the first entry of the JSON error body (supplement §7); for
 * the upload protocol's plain-text errors `message` is the text itself.
 */
export class StoreError extends Error {
  readonly status: number;
  readonly reason?: string;
  readonly domain?: string;
  /** The parsed JSON error body, when the service sent one. */
  readonly body?: ErrorBody;

  constructor(status: number, message: string, details: { reason?: string; domain?: string; body?: ErrorBody } = {}) {
    super(message);
    this.name = 'StoreError';
    this.status = status;
    if (details.reason !== undefined) this.reason = details.reason;
    if (details.domain !== undefined) this.domain = details.domain;
    if (details.body !== undefined) this.body = details.body;
  }

  /** Builds the error for a non-success response from its status and body text (JSON or plain text). */
  static fromResponse(status: number, text: string): StoreError {
    const body = parseErrorBody(text);
    if (body) {
      const first = body.error.errors?.[0];
      return new StoreError(status, body.error.message || first?.message || `HTTP ${status}`, {
        ...(first?.reason !== undefined && { reason: first.reason }),
        ...(first?.domain !== undefined && { domain: first.domain }),
        body,
      });
    }
    return new StoreError(status, text.trim() || `HTTP ${status}`);
  }

  /** A request that got no answer at all (network error, connection cut): status 0, retried with backoff. */
  static network(method: string, target: string, error: unknown): StoreError {
    return new StoreError(
      0,
      `Network error on ${method} ${target}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }

  /** True for what spec §7 says to retry with backoff: 5xx and rate limits (403 `usageLimits`, or 429). */
  get retryable(): boolean {
    return isRetryable(this.status, this.reason);
  }
}

/** Reasons of the `usageLimits` domain that mean "slow down and try again" (supplement §7). */
const RATE_LIMIT_REASONS = new Set(['userRateLimitExceeded', 'rateLimitExceeded']);

/** True when the status and reason call for a retry with backoff (spec §7): 500/502/503/504, 429, 403 rate limit. */
export function isRetryable(status: number, reason?: string): boolean {
  return isRetryableStatus(status) || status === 429 || isRateLimit(status, reason);
}

/** True for the 403 rate-limit error of spec §7. */
export function isRateLimit(status: number, reason?: string): boolean {
  return status === 403 && reason !== undefined && RATE_LIMIT_REASONS.has(reason);
}

function parseErrorBody(text: string): ErrorBody | undefined {
  if (!text.trimStart().startsWith('{')) return undefined;
  try {
    return readErrorBody(JSON.parse(text));
  } catch {
    return undefined; // not JSON after all: the caller falls back to the text
  }
}
