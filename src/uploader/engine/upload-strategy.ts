import type { ReleaseLock } from '../contract/ports.ts';
import type { StoreFile } from '../contract/types.ts';

/**
 * How one task's bytes reach the service: one multipart request (`MultipartUpload`) or a resumable session
 * (`ResumableUpload`, whole or in chunks). The job runs attempts and judges failures; the session members are no-ops
 * for a strategy without a session.
 */
export interface UploadStrategy {
  /** One attempt from wherever the upload stands; throws for the job to judge. */
  run(signal: AbortSignal, token: string): Promise<StoreFile>;
  /** The id of the stored session record, once there is one. */
  readonly recordId: string | undefined;
  /** The session URI, once a session exists (other tabs know the session by it). */
  readonly sessionUri: string | undefined;
  /** Takes over the session's lock this tab waited for. */
  adoptLock(lock: ReleaseLock): void;
  /** Lets another tab take the session. */
  releaseLock(): void;
  /** Forgets the session without telling the service (another tab finished or cancelled it). */
  forget(): void;
  /** Forgets an expired session: the next attempt starts a new one. */
  reset(): Promise<void>;
  /** Cancels the session with the service and forgets it. */
  cancel(): Promise<void>;
}
