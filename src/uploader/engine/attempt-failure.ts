import { StoreError, isRateLimit } from '../../client/store-error.ts';
import { TokenError } from '../../client/token-source.ts';
import { UploadError } from '../contract/upload-error.ts';
import { errorCodeOf } from './error-code.ts';
import { interruptOf } from './interrupt.ts';
import { HeldElsewhere, SessionExpired } from './session-errors.ts';
import type { Failure } from './retry-policy.ts';

/**
 * What an attempt's error was, as the retry policy (`retry-policy.ts`) reads it: an interrupt (the thrown one, or
 * the attempt's abort reason), another tab holding the session, an expired session, a service answer, or anything else.
 */
export function failureOf(
  caught: unknown,
  attempt: AbortSignal,
  now: { online: boolean; authRetried: boolean },
): Failure {
  const interrupt = interruptOf(caught) ?? (attempt.aborted ? interruptOf(attempt.reason) : undefined);
  if (interrupt) return { kind: interrupt.kind };
  if (caught instanceof HeldElsewhere) return { kind: 'held-elsewhere' };
  if (caught instanceof SessionExpired) return { kind: 'session-expired' };
  if (caught instanceof StoreError) {
    const { status, retryable, reason } = caught;
    return { kind: 'http', status, retryable, rateLimit: isRateLimit(status, reason), ...now };
  }
  return { kind: 'other' };
}

/** The error a task fails with when the policy says `fail`: the service's answer or the token getter's as a task error. */
export function finalError(caught: unknown, converting: boolean): unknown {
  if (caught instanceof StoreError) {
    return new UploadError({
      code: errorCodeOf(caught, converting),
      message: caught.message,
      status: caught.status,
      ...(caught.reason !== undefined && { reason: caught.reason }),
    });
  }
  // The app's token getter failed: nothing was sent, and the user must sign in again.
  if (caught instanceof TokenError) return new UploadError({ code: 'auth', message: caught.message });
  return caught;
}
