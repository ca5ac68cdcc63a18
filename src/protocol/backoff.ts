/** Exponential backoff with full jitter (delay = random × min(cap, base × 2^attempt)). */

/** Tuning of {@link backoffDelay}. */
export interface BackoffOptions {
  /** Delay scale of the first retry in ms (default 1000). */
  readonly baseMs?: number;
  /** Upper bound of any delay in ms (default 32000). */
  readonly capMs?: number;
  /** Random source in [0, 1); injectable so tests are deterministic (default `Math.random`). */
  readonly random?: () => number;
}

/** Default first-retry scale in ms. */
export const DEFAULT_BACKOFF_BASE_MS = 1000;
/** Default cap in ms. */
export const DEFAULT_BACKOFF_CAP_MS = 32000;

/** The ceiling of the jitter window for a zero-based attempt number. */
export function backoffCeiling(attempt: number, options: BackoffOptions = {}): number {
  const base = options.baseMs ?? DEFAULT_BACKOFF_BASE_MS;
  const cap = options.capMs ?? DEFAULT_BACKOFF_CAP_MS;
  const exp = Math.min(Math.max(0, Math.floor(attempt)), 30);
  return Math.min(cap, base * 2 ** exp);
}

/** Delay before retry number `attempt` (0 = first retry): full jitter in [0, ceiling). */
export function backoffDelay(attempt: number, options: BackoffOptions = {}): number {
  const random = options.random ?? Math.random;
  return Math.floor(random() * backoffCeiling(attempt, options));
}

/** True for statuses a client should retry with backoff (spec §7). */
export function isRetryableStatus(status: number): boolean {
  return status === 500 || status === 502 || status === 503 || status === 504;
}
