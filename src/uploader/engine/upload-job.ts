import { StoreError } from '../../client/store-error.ts';
import { TokenError } from '../../client/token-source.ts';
import { backoffDelay } from '../../protocol/backoff.ts';
import { ChunkSizer } from './chunk-sizer.ts';
import { failureOf, finalError } from './attempt-failure.ts';
import { placeFile } from './place-file.ts';
import { followOtherTab } from './follow-other-tab.ts';
import { Interrupt } from './interrupt.ts';
import { isFinal } from '../contract/task-state.ts';
import { NoPageAttached } from './no-page.ts';
import { MultipartUpload } from './multipart-upload.ts';
import type { SessionMessage, SessionRecord } from '../contract/ports.ts';
import { ProgressMeter } from './progress-meter.ts';
import { ResumableUpload } from './resumable-upload.ts';
import type { HeldElsewhere } from './session-errors.ts';
import { decide } from './retry-policy.ts';
import type { RetryInfo, StoreFile, TaskSnapshot } from '../contract/types.ts';
import type { JobDeps, UploadContext, UploadInput } from './upload-context.ts';
import { errorInfoOf, UploadError } from '../contract/upload-error.ts';
import type { JobEvent } from '../contract/worker-contract.ts';
import type { UploadStrategy } from './upload-strategy.ts';

export type { JobEvent } from '../contract/worker-contract.ts';

/**
 * One upload task's life: picks the strategy, runs attempts, and decides after each failure what spec §7 says —
 * back off and resume (5xx, network, stall, rate limit), start a new session (404), refresh the token once (401),
 * wait without spending retries while offline, or fail with a code. `run` returns when the task is done, failed,
 * paused or cancelled; the engine calls it again after `resume`/`retry`.
 *
 * `done` belongs to one attempt at the task: it settles when the task ends (`done`, `failed`, `cancelled`), and
 * `rearm` after a failure replaces it with a new pending promise for the retried attempt (tus and Uppy report each
 * attempt's outcome too). So the snapshot, the events and `done` always agree: `failed` ⇔ the `error` event ⇔ the
 * current `done` rejected; `queued` again after a retry ⇔ a new, pending `done`.
 *
 * When another tab holds the session's lock, the job does not send: it follows that tab's progress (BroadcastChannel)
 * with `inOtherTab` set, waits for the lock, and then asks the service where the upload stands — or ends with the
 * other tab's outcome when it hears one.
 */
export class UploadJob {
  readonly snapshot: TaskSnapshot;
  private current!: Promise<StoreFile>;
  private settle!: { resolve(file: StoreFile): void; reject(error: UploadError): void };
  private readonly strategy: UploadStrategy;
  private readonly meter: ProgressMeter;
  private controller?: AbortController;
  /** Aborts only the current attempt (going offline), not the job. */
  private attempt?: AbortController;
  private attempts = 0;
  /**
   * Set when a cancel begins. Ending takes awaits (record delete, session `DELETE`) while the state still reads
   * `paused`/`queued`; a resume or retry in that window must not re-arm the task and upload it after all.
   */
  private cancelling = false;
  /** True once `input.options` carries the file's folder. */
  private placed = false;

  constructor(
    private readonly deps: JobDeps,
    readonly input: UploadInput,
    resumeFrom?: SessionRecord,
  ) {
    const resumable = resumeFrom !== undefined || input.file.size > deps.resumableThreshold;
    this.snapshot = {
      id: input.taskId,
      name: input.name,
      ...(input.options.relativePath && { relativePath: input.options.relativePath }),
      type: input.type,
      state: 'queued',
      total: input.file.size,
      ...(input.originalSize !== undefined && { originalSize: input.originalSize }),
      bytesSent: resumeFrom?.acknowledged ?? 0,
      bytesAcknowledged: resumeFrom?.acknowledged ?? 0,
      speed: 0,
      strategy: resumable ? 'resumable' : 'multipart',
      ...(input.options.convertTo && { convertTo: input.options.convertTo }),
    };
    this.renew();
    this.meter = new ProgressMeter(this.snapshot, deps.clock, () => {
      this.deps.emit('progress', this.copy());
      this.broadcastProgress();
    });
    const ctx: UploadContext = {
      ...deps,
      onSent: (start, sent) => this.meter.sent(start + sent),
      onAcknowledged: (n) => this.meter.acknowledged(n),
    };
    this.strategy = resumable
      ? new ResumableUpload(ctx, input, new ChunkSizer(deps.chunkSize), resumeFrom)
      : new MultipartUpload(ctx, input);
  }

  /** The outcome of the current attempt at the task (replaced by `rearm` after a failure). */
  get done(): Promise<StoreFile> {
    return this.current;
  }

  /** The id of the session record this job uploads, if it has one. */
  get recordId(): string | undefined {
    return this.strategy.recordId;
  }

  /** True while `run` is working on the task. */
  get running(): boolean {
    return this.controller !== undefined;
  }

  /** Runs attempts until the task is finished, failed, paused or cancelled. */
  async run(): Promise<void> {
    const controller = new AbortController();
    this.controller = controller;
    const signal = controller.signal;
    if (this.snapshot.startedAt === undefined) {
      this.snapshot.startedAt = this.deps.clock.now();
      this.set({ state: 'uploading' }, 'start');
    } else this.set({ state: 'uploading' }, 'change');
    const heartbeat = new AbortController();
    void this.meter.heartbeat(AbortSignal.any([signal, heartbeat.signal]));
    let refreshToken = false;
    let authRetried = false;
    /** The token of the latest attempt (a 401 names it, so a token another call already replaced is not refreshed). */
    let token: string | undefined;
    let delay = 0;
    let follow: string | undefined;
    /** Set when a new token is needed and no page of the account is there to give one: waits for one to attach. */
    let noPage: NoPageAttached | undefined;
    try {
      for (;;) {
        const ackBefore = this.snapshot.bytesAcknowledged;
        const attempt = new AbortController();
        this.attempt = attempt;
        const forward = () => attempt.abort(signal.reason);
        signal.addEventListener('abort', forward, { once: true });
        try {
          if (delay > 0) await this.deps.clock.sleep(delay, signal);
          delay = 0;
          if (follow !== undefined) {
            this.set({ state: 'uploading', inOtherTab: true, retry: undefined, speed: 0 }, 'change');
            const outcome = await followOtherTab(this.deps, this.snapshot, this.strategy, follow, attempt.signal, () =>
              this.deps.emit('progress', this.copy()),
            );
            follow = undefined;
            if (outcome?.type === 'done') {
              this.finishWith(outcome.file);
              return;
            }
            if (outcome?.type === 'cancelled') {
              this.strategy.forget();
              this.endCancelled();
              return;
            }
          }
          if (noPage) {
            this.set(
              { state: 'paused', error: { code: 'auth', message: noPage.message }, retry: undefined, speed: 0 },
              'change',
            );
            await untilOrAborted(noPage.attached, signal);
            noPage = undefined;
            this.set({ state: 'uploading', error: undefined }, 'change');
          }
          if (!this.deps.online.isOnline()) await this.waitOnline(signal);
          if (this.snapshot.state !== 'uploading') this.set({ state: 'uploading', retry: undefined }, 'change');
          token = await this.deps.client.accessToken(refreshToken, token);
          refreshToken = false;
          if (!this.placed) {
            // The strategy reads the options when it sends the create, so the folder is known before then.
            this.input.options = await placeFile(this.input.options, this.deps.folderOf, attempt.signal);
            this.placed = true;
          }
          const file = await this.strategy.run(attempt.signal, token);
          this.deps.client.tokenAccepted(token);
          this.finishWith(file);
          return;
        } catch (caught) {
          if (caught instanceof TokenError && caught.cause instanceof NoPageAttached) {
            noPage = caught.cause;
            continue; // refreshToken is still set: the token is asked for again once a page is there
          }
          // The engine could not learn whose a new token is (the service did not answer): judged as that answer.
          const failure = caught instanceof TokenError && caught.cause instanceof StoreError ? caught.cause : caught;
          if (failure instanceof StoreError && failure.status > 0 && failure.status !== 401 && token !== undefined)
            this.deps.client.tokenAccepted(token);
          if (this.snapshot.bytesAcknowledged > ackBefore) this.attempts = 0; // progress renews the budget
          const decision = decide(
            failureOf(failure, attempt.signal, { online: this.deps.online.isOnline(), authRetried }),
          );
          switch (decision.action) {
            case 'pause': {
              this.set({ state: 'paused', retry: undefined, speed: 0 }, 'change');
              return;
            }
            case 'cancel': {
              await this.cancelNow();
              return;
            }
            case 'stop':
              return;
            case 'wait-online':
              continue; // the loop waits for `online`, spending nothing
            case 'follow-other-tab':
              follow = (failure as HeldElsewhere).sessionUri;
              continue;
            case 'refresh-token':
              authRetried = refreshToken = true;
              continue;
            case 'new-session':
              await this.strategy.reset();
              delay = this.backoff(decision.cause);
              continue;
            case 'back-off':
              delay = this.backoff(decision.cause, failure instanceof StoreError ? failure : undefined);
              continue;
            case 'fail':
              throw finalError(failure, !!this.input.options.convertTo);
          }
        } finally {
          signal.removeEventListener('abort', forward);
        }
      }
    } catch (error) {
      this.failWith(error);
    } finally {
      heartbeat.abort();
      this.strategy.releaseLock();
      if (this.controller === controller) this.controller = undefined;
    }
  }

  /** Stops sending; `resume` continues from what the service confirmed. */
  pause(): void {
    if (this.controller) this.controller.abort(new Interrupt('pause'));
    else if (this.snapshot.state === 'queued' || this.snapshot.state === 'interrupted')
      this.set({ state: 'paused' }, 'change');
  }

  /** Stops and forgets the upload (the resumable session is cancelled with the service). */
  async cancel(): Promise<void> {
    if (this.controller) this.controller.abort(new Interrupt('cancel'));
    else if (!isFinal(this.snapshot.state) && !this.cancelling) await this.cancelNow();
  }

  /** Forgets a failed task's resumable session: its record and, with a `DELETE`, the service's session. */
  async discard(): Promise<void> {
    if (!this.running) await this.strategy.cancel();
  }

  /** Aborts the current request with `kind` (`offline`, `destroy`). */
  interrupt(kind: 'offline' | 'destroy'): void {
    if (kind === 'offline') this.attempt?.abort(new Interrupt(kind));
    else this.controller?.abort(new Interrupt(kind));
  }

  /** Makes a paused or failed task runnable again; the engine then calls `run`. */
  rearm(): boolean {
    if (this.cancelling) return false;
    if (this.snapshot.state !== 'paused' && this.snapshot.state !== 'failed' && this.snapshot.state !== 'interrupted')
      return false;
    if (this.snapshot.state === 'failed') this.renew(); // the failed attempt's `done` stays rejected
    this.attempts = 0;
    this.set({ state: 'queued', error: undefined, retry: undefined }, 'change');
    return true;
  }

  /** A fresh pending `done` for the next attempt. */
  private renew(): void {
    this.current = new Promise<StoreFile>((resolve, reject) => (this.settle = { resolve, reject }));
    this.current.catch(() => undefined); // the app may never look at `done`; failures are also events
  }

  /** Tells the other tabs about this session (they may be following it). */
  private broadcast(message: (sessionUri: string) => SessionMessage): void {
    const uri = this.strategy.sessionUri;
    if (uri && this.deps.channel) this.deps.channel.post(message(uri));
  }

  private backoff(cause: RetryInfo['cause'], error?: StoreError): number {
    this.attempts++;
    if (this.attempts > this.deps.maxRetries) {
      throw new UploadError({
        code: 'retries-exhausted',
        message: `gave up after ${this.deps.maxRetries} retries without progress (last: ${cause}${error ? ` ${error.status} ${error.message}` : ''})`,
        ...(error && error.status > 0 && { status: error.status }),
        ...(error?.reason !== undefined && { reason: error.reason }),
      });
    }
    const delayMs = backoffDelay(this.attempts - 1, this.deps.backoff);
    const retry: RetryInfo = {
      attempt: this.attempts,
      delayMs,
      cause,
      ...(error && error.status > 0 && { status: error.status }),
    };
    this.set({ state: 'retrying', retry, speed: 0 }, 'retry');
    return delayMs;
  }

  private async waitOnline(signal: AbortSignal): Promise<void> {
    this.set({ state: 'retrying', retry: { attempt: this.attempts, delayMs: 0, cause: 'offline' }, speed: 0 }, 'retry');
    await new Promise<void>((resolve, reject) => {
      const stop = this.deps.online.subscribe((online) => {
        if (!online) return;
        stop();
        signal.removeEventListener('abort', onAbort);
        resolve();
      });
      const onAbort = () => {
        stop();
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private broadcastProgress(): void {
    const { bytesSent, bytesAcknowledged, total } = this.snapshot;
    this.broadcast((sessionUri) => ({ type: 'progress', sessionUri, bytesSent, bytesAcknowledged, total }));
  }

  private finishWith(file: StoreFile): void {
    this.broadcast((sessionUri) => ({ type: 'done', sessionUri, file }));
    this.set(
      { state: 'done', file, finishedAt: this.deps.clock.now(), speed: 0, etaMs: undefined, retry: undefined },
      'success',
    );
    this.settle.resolve(file);
  }

  private failWith(error: unknown): void {
    const info = errorInfoOf(error);
    this.set({ state: 'failed', error: info, finishedAt: this.deps.clock.now(), speed: 0, retry: undefined }, 'error');
    this.settle.reject(error instanceof UploadError ? error : new UploadError(info));
  }

  private async cancelNow(): Promise<void> {
    this.cancelling = true;
    this.broadcast((sessionUri) => ({ type: 'cancelled', sessionUri }));
    await this.strategy.cancel();
    this.endCancelled();
  }

  private endCancelled(): void {
    this.set({ state: 'cancelled', finishedAt: this.deps.clock.now(), speed: 0, retry: undefined }, 'change');
    this.settle.reject(new UploadError({ code: 'cancelled', message: 'the upload was cancelled' }));
  }

  private set(patch: Partial<TaskSnapshot>, event: JobEvent): void {
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined) Reflect.deleteProperty(this.snapshot, key);
      else (this.snapshot as unknown as Record<string, unknown>)[key] = value;
    }
    this.deps.emit(event, this.copy());
  }

  private copy(): TaskSnapshot {
    return { ...this.snapshot };
  }
}

/** Resolves with `wait`, or rejects with the signal's reason when it aborts first (a pause or cancel). */
function untilOrAborted(wait: Promise<void>, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    void wait.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}
