import type { HashTracker, SessionRecord, SessionStore } from '../contract/ports.ts';
import { withTimeout } from '../contract/with-timeout.ts';

/**
 * Writes a resumable session's record without holding up the next request: writes are coalesced (at most one in
 * flight; when it ends, one more with the latest acknowledged offset), and each writes only an offset the service
 * acknowledged, with the MD5 state at that offset when the tracker has it.
 */
export class SessionWriter {
  private dirty = false;
  private running?: Promise<void>;
  private closed = false;

  constructor(
    private readonly store: SessionStore | undefined,
    private readonly record: SessionRecord,
    private readonly file: Blob,
    private readonly tracker: () => HashTracker | undefined,
    /** How long a state may take to read: one that never comes is left out of the record (it resumes by re-hashing). */
    private readonly stallTimeoutMs: number,
  ) {}

  /** The record's `acknowledged` moved: write it soon. */
  schedule(): void {
    if (!this.store || this.closed) return;
    this.dirty = true;
    this.running ??= this.drain().finally(() => (this.running = undefined));
  }

  /**
   * Resolves once the latest scheduled write is stored: a pause, a failure or the worker's end (`destroy` waits for
   * it) leaves a record at the latest acknowledged offset. Only a crash can leave it one write behind, and a resumed
   * upload asks the service first anyway.
   */
  async flush(): Promise<void> {
    while (this.running) await this.running;
  }

  /** No more writes (the session ended): waits for the one in flight, so a delete after this is final. */
  async close(): Promise<void> {
    this.closed = true;
    this.dirty = false;
    await this.flush();
  }

  private async drain(): Promise<void> {
    while (this.dirty && !this.closed) {
      this.dirty = false;
      const acknowledged = this.record.acknowledged;
      const tracker = this.tracker();
      // Asked synchronously, before the sender queues the next request's bytes: the state is usually ready.
      const state =
        tracker &&
        withTimeout(tracker.stateAt(this.file, acknowledged), this.stallTimeoutMs, () => new Error('stalled')).catch(
          () => undefined,
        );
      const saved = await state;
      if (saved && acknowledged >= this.record.hashedTo) {
        this.record.hashState = saved;
        this.record.hashedTo = acknowledged;
      }
      if (this.closed) return;
      await this.store!.put({ ...this.record, acknowledged });
    }
  }
}
