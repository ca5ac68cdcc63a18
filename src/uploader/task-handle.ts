import type { StoreFile, TaskSnapshot, UploadTask } from './types.ts';

/** The commands a task handle forwards (to the worker). */
export interface TaskCommands {
  pause(id: string): void;
  resume(id: string): void;
  cancel(id: string): void;
}

/** The main-thread view of one task: the latest snapshot the worker reported, and commands sent back to it. */
export class TaskHandle implements UploadTask {
  readonly done: Promise<StoreFile>;
  resolve!: (file: StoreFile) => void;
  reject!: (error: Error) => void;

  constructor(public snapshot: TaskSnapshot, private readonly commands: TaskCommands) {
    this.done = new Promise<StoreFile>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    this.done.catch(() => undefined); // failures are also `error` events; an unobserved `done` must not be "unhandled"
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
    this.commands.resume(this.id);
  }
  cancel(): void {
    this.commands.cancel(this.id);
  }
  /** Tries a failed task again (the same as `resume`). */
  retry(): void {
    this.commands.resume(this.id);
  }
}
