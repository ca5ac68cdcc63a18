import type { StoreFile, TaskSnapshot, UploadTask } from '../contract/types.ts';
import { UploadError } from '../contract/upload-error.ts';

/** The commands a task handle forwards (to the worker). */
export interface TaskCommands {
  pause(id: string): void;
  resume(id: string): void;
  cancel(id: string): void;
  /** Runs a failed task again; the handle has already set its snapshot back to queued, with a new `done`. */
  retry(id: string): void;
}

/** Settles one attempt's `done`. */
export interface Settle {
  resolve(file: StoreFile): void;
  reject(error: Error): void;
}

/**
 * The main-thread view of one task: the latest snapshot the worker reported, and commands sent back to it.
 * `done` is the current attempt's promise: `retry()` after a failure replaces it (see `UploadTask.done`).
 */
export class TaskHandle implements UploadTask {
  private promise!: Promise<StoreFile>;
  /** Settles the current `done`; capture it before waiting, so a late answer never settles a newer attempt. */
  settle!: Settle;

  constructor(
    public snapshot: TaskSnapshot,
    private readonly commands: TaskCommands,
  ) {
    this.renew();
  }

  get done(): Promise<StoreFile> {
    return this.promise;
  }
  get id(): string {
    return this.snapshot.id;
  }
  get state(): TaskSnapshot['state'] {
    return this.snapshot.state;
  }
  get bytesSent(): number {
    return this.snapshot.bytesSent;
  }
  get bytesAcknowledged(): number {
    return this.snapshot.bytesAcknowledged;
  }
  get total(): number {
    return this.snapshot.total;
  }
  pause(): void {
    this.commands.pause(this.id);
  }
  resume(): void {
    if (this.snapshot.state === 'failed') return this.retry();
    this.commands.resume(this.id);
  }
  cancel(): void {
    this.commands.cancel(this.id);
  }
  /** Tries a failed task again with a new `done`; on a task that has not failed it is the same as `resume`. */
  retry(): void {
    if (this.snapshot.state !== 'failed') return this.commands.resume(this.id);
    this.renew();
    const { error: _error, retry: _retry, ...rest } = this.snapshot;
    this.snapshot = { ...rest, state: 'queued' };
    this.commands.retry(this.id);
  }

  /** Settles the current `done` from the task's final snapshot: its file, its error, or cancelled. */
  settleFrom({ state, file, error }: TaskSnapshot): void {
    if (state === 'done' && file) this.settle.resolve(file);
    else if (state === 'failed' || state === 'cancelled')
      this.settle.reject(
        new UploadError(
          error && state === 'failed' ? error : { code: 'cancelled', message: 'the upload was cancelled' },
        ),
      );
  }

  private renew(): void {
    this.promise = new Promise<StoreFile>((resolve, reject) => (this.settle = { resolve, reject }));
    this.promise.catch(() => undefined); // failures are also `error` events; an unobserved `done` must not be "unhandled"
  }
}
