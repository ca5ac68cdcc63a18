import type { RetryInfo } from '../contract/types.ts';

/** What went wrong in one attempt, as the policy needs to know it. */
export type Failure =
  | { kind: 'pause' | 'cancel' | 'destroy' | 'offline' | 'held-elsewhere' | 'session-expired' | 'stall' }
  | { kind: 'http'; status: number; retryable: boolean; rateLimit: boolean; online: boolean; authRetried: boolean }
  | { kind: 'other' };

/** What the job does next. */
export type Decision =
  | { action: 'pause' | 'cancel' | 'stop' | 'wait-online' | 'follow-other-tab' | 'refresh-token' | 'fail' }
  | { action: 'new-session'; cause: RetryInfo['cause'] }
  | { action: 'back-off'; cause: RetryInfo['cause'] };

/**
 * Spec §7 as a table: which failures are retried, after what, and which end the task. Pure, so its rules are tested
 * one row at a time (`test/client/retry-policy.test.ts`); the job carries out the decision.
 */
export function decide(failure: Failure): Decision {
  switch (failure.kind) {
    case 'pause':
    case 'cancel':
      return { action: failure.kind };
    case 'destroy':
      return { action: 'stop' };
    case 'offline':
      return { action: 'wait-online' };
    case 'held-elsewhere':
      return { action: 'follow-other-tab' };
    case 'session-expired':
      return { action: 'new-session', cause: 'session-expired' };
    case 'stall':
      return { action: 'back-off', cause: 'stall' };
    case 'http':
      if (failure.status === 0 && !failure.online) return { action: 'wait-online' };
      if (failure.status === 401 && !failure.authRetried) return { action: 'refresh-token' };
      if (failure.status === 0) return { action: 'back-off', cause: 'network' };
      if (failure.retryable) return { action: 'back-off', cause: failure.rateLimit ? 'rate-limit' : 'server-error' };
      return { action: 'fail' };
    case 'other':
      return { action: 'fail' };
  }
}
