import { StoreError, isRateLimit, type StoreClient } from '../client/index.ts';
import { backoffDelay, type BackoffOptions } from '../protocol/backoff.ts';
import { ChunkSizer } from './chunk-sizer.ts';
import { errorCodeOf } from './error-code.ts';
import { Interrupt, interruptOf } from './interrupt.ts';
import { MultipartUpload } from './multipart-upload.ts';
import type { ClockPort, OnlinePort, SessionRecord } from './ports.ts';
import { ResumableUpload, SessionExpired } from './resumable-upload.ts';
import type { RetryInfo, StoreFile, TaskSnapshot, UploadErrorInfo } from './types.ts';
import type { UploadContext, UploadInput } from './upload-context.ts';
import { UploadError } from './upload-error.ts';

/** Events a job reports; `progress` is throttled by the job, the others are sent as they happen. */
export type JobEvent = 'start' | 'progress' | 'retry' | 'success' | 'error' | 'change';

/** What a job needs from the engine. */
export interface JobDeps extends Omit<UploadContext, 'onSent' | 'onAcknowledged'> {
  client: StoreClient;
  online: OnlinePort;
  clock: ClockPort;
  maxRetries: number;
  backoff?: BackoffOptions;
  resumableThreshold: number;
  chunkSize: number | 'adaptive' | undefined;
  emit(event: JobEvent, snapshot: TaskSnapshot): void;
}

/** Progress events per task per second at most (plus one per acknowledged chunk). */
const PROGRESS_PER_SECOND = 10;

/**
 * One upload task's life: picks the strategy, runs attempts, and decides after each failure what spec §7 says —
 * back off and resume (5xx, network, stall, rate limit), start a new session (404), refresh the token once (401),
 * wait without spending retries while offline, or fail with a code. `run` returns when the task is done, failed,
 * paused or cancelled; the engine calls it again after `resume`/`retry`.
 */
export class UploadJob {
  readonly snapshot: TaskSnapshot;
  readonly done: Promise<StoreFile>;
  private settle!: { resolve(file: StoreFile): void; reject(error: UploadError): void };
  private readonly strategy: MultipartUpload | ResumableUpload;
  private controller?: AbortController;
  /** Aborts only the current attempt (going offline), not the job. */
  private attempt?: AbortController;
  private attempts = 0;
  private lastProgressEmit = 0;
  private speedSample = { at: 0, bytes: 0 };

  constructor(private readonly deps: JobDeps, readonly input: UploadInput, resumeFrom?: SessionRecord) {
    const file = input.file;
    const resumable = resumeFrom !== undefined || file.size > deps.resumableThreshold;
    this.snapshot = {
      id: input.taskId,
      name: input.name,
      ...(input.options.relativePath && { relativePath: input.options.relativePath }),
      type: input.type,
      state: 'queued',
      total: file.size,
      bytesSent: resumeFrom?.acknowledged ?? 0,
      bytesAcknowledged: resumeFrom?.acknowledged ?? 0,
      speed: 0,
      strategy: resumable ? 'resumable' : 'multipart',
      ...(input.options.convertTo && { convertTo: input.options.convertTo }),
    };
    this.done = new Promise<StoreFile>((resolve, reject) => (this.settle = { resolve, reject }));
    this.done.catch(() => undefined); // the app may never look at `done`; failures are also events
    const ctx: UploadContext = {
      ...deps,
      onSent: (start, sent) => this.onSent(start + sent),
      onAcknowledged: (n) => this.onAcknowledged(n),
    };
    this.strategy = resumable ? new ResumableUpload(ctx, input, new ChunkSizer(deps.chunkSize), resumeFrom) : new MultipartUpload(ctx, input);
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
    let refreshToken = false;
    let authRetried = false;
    let delay = 0;
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
          if (!this.deps.online.isOnline()) await this.waitOnline(signal);
          if (this.snapshot.state !== 'uploading') this.set({ state: 'uploading', retry: undefined }, 'change');
          const token = await this.deps.client.accessToken(refreshToken);
          refreshToken = false;
          const file = await this.strategy.run(attempt.signal, token);
          this.finishWith(file);
          return;
        } catch (caught) {
          const interrupt = interruptOf(caught) ?? (attempt.signal.aborted ? interruptOf(attempt.signal.reason) : undefined);
          if (interrupt?.kind === 'pause') return this.set({ state: 'paused', retry: undefined, speed: 0 }, 'change');
          if (interrupt?.kind === 'cancel') return await this.cancelNow();
          if (interrupt?.kind === 'destroy') return;
          if (interrupt?.kind === 'offline') continue; // the loop waits for `online`, spending nothing
          if (this.snapshot.bytesAcknowledged > ackBefore) this.attempts = 0; // progress renews the budget
          if (caught instanceof SessionExpired) {
            await (this.strategy as ResumableUpload).reset();
            delay = this.backoff('session-expired');
            continue;
          }
          if (interrupt?.kind === 'stall') {
            delay = this.backoff('stall');
            continue;
          }
          if (caught instanceof StoreError) {
            if (caught.status === 0 && !this.deps.online.isOnline()) continue;
            if (caught.status === 401 && !authRetried) {
              authRetried = refreshToken = true;
              continue;
            }
            if (caught.status === 0 || caught.retryable) {
              delay = this.backoff(caught.status === 0 ? 'network' : isRateLimit(caught.status, caught.reason) ? 'rate-limit' : 'server-error', caught);
              continue;
            }
            throw new UploadError({
              code: errorCodeOf(caught, !!this.input.options.convertTo),
              message: caught.message,
              status: caught.status,
              ...(caught.reason !== undefined && { reason: caught.reason }),
            });
          }
          throw caught;
        } finally {
          signal.removeEventListener('abort', forward);
        }
      }
    } catch (error) {
      this.failWith(error);
    } finally {
      if (this.controller === controller) this.controller = undefined;
    }
  }

  /** Stops sending; `resume` continues from what the service confirmed. */
  pause(): void {
    if (this.controller) this.controller.abort(new Interrupt('pause'));
    else if (this.snapshot.state === 'queued' || this.snapshot.state === 'interrupted') this.set({ state: 'paused' }, 'change');
  }

  /** Stops and forgets the upload (the resumable session is cancelled with the service). */
  async cancel(): Promise<void> {
    if (this.controller) this.controller.abort(new Interrupt('cancel'));
    else if (!isFinal(this.snapshot.state)) await this.cancelNow();
  }

  /** Aborts the current request with `kind` (`offline`, `destroy`). */
  interrupt(kind: 'offline' | 'destroy'): void {
    if (kind === 'offline') this.attempt?.abort(new Interrupt(kind));
    else this.controller?.abort(new Interrupt(kind));
  }

  /** Makes a paused or failed task runnable again; the engine then calls `run`. */
  rearm(): boolean {
    if (this.snapshot.state !== 'paused' && this.snapshot.state !== 'failed' && this.snapshot.state !== 'interrupted') return false;
    this.attempts = 0;
    this.set({ state: 'queued', error: undefined, retry: undefined }, 'change');
    return true;
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
    const retry: RetryInfo = { attempt: this.attempts, delayMs, cause, ...(error && error.status > 0 && { status: error.status }) };
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

  private onSent(position: number): void {
    const now = this.deps.clock.now();
    const sample = this.speedSample;
    if (now - sample.at >= 250) {
      if (sample.at > 0 && position > sample.bytes) {
        const instant = ((position - sample.bytes) * 1000) / (now - sample.at);
        this.snapshot.speed = this.snapshot.speed ? 0.7 * this.snapshot.speed + 0.3 * instant : instant;
      }
      this.speedSample = { at: now, bytes: position };
    }
    this.snapshot.bytesSent = Math.max(this.snapshot.bytesAcknowledged, Math.min(position, this.snapshot.total));
    if (this.snapshot.speed > 0) this.snapshot.etaMs = ((this.snapshot.total - this.snapshot.bytesSent) * 1000) / this.snapshot.speed;
    if (now - this.lastProgressEmit >= 1000 / PROGRESS_PER_SECOND) {
      this.lastProgressEmit = now;
      this.deps.emit('progress', this.copy());
    }
  }

  private onAcknowledged(acknowledged: number): void {
    this.snapshot.bytesAcknowledged = acknowledged;
    this.snapshot.bytesSent = acknowledged;
    this.lastProgressEmit = this.deps.clock.now();
    this.deps.emit('progress', this.copy());
  }

  private finishWith(file: StoreFile): void {
    this.set({ state: 'done', file, finishedAt: this.deps.clock.now(), speed: 0, etaMs: undefined, retry: undefined }, 'success');
    this.settle.resolve(file);
  }

  private failWith(error: unknown): void {
    const info: UploadErrorInfo =
      error instanceof UploadError ? error.toJSON() : { code: 'unknown', message: error instanceof Error ? error.message : String(error) };
    this.set({ state: 'failed', error: info, finishedAt: this.deps.clock.now(), speed: 0, retry: undefined }, 'error');
    this.settle.reject(error instanceof UploadError ? error : new UploadError(info));
  }

  private async cancelNow(): Promise<void> {
    if (this.strategy instanceof ResumableUpload) await this.strategy.cancel();
    this.set({ state: 'cancelled', finishedAt: this.deps.clock.now(), speed: 0, retry: undefined }, 'change');
    this.settle.reject(new UploadError({ code: 'cancelled', message: 'the upload was cancelled' }));
  }

  private set(patch: Partial<TaskSnapshot>, event: JobEvent): void {
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined) delete (this.snapshot as unknown as Record<string, unknown>)[key];
      else (this.snapshot as unknown as Record<string, unknown>)[key] = value;
    }
    this.deps.emit(event, this.copy());
  }

  private copy(): TaskSnapshot {
    return { ...this.snapshot };
  }
}

/** States a task does not leave on its own. */
export function isFinal(state: TaskSnapshot['state']): boolean {
  return state === 'done' || state === 'failed' || state === 'cancelled';
}
