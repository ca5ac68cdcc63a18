import type { TaskHandle } from './task-handle.ts';
import type { AddOptions, TaskSnapshot, UploadErrorInfo } from '../contract/types.ts';
import { UploadError } from '../contract/upload-error.ts';
import { isFinal } from '../contract/task-state.ts';
import type { FileInfo } from '../contract/worker-contract.ts';

/**
 * The main thread's tasks in the order they were added, with each task's latest snapshot kept in an array at an index
 * known by id and the byte totals kept as running sums: a task's new snapshot costs O(1), and a whole uploader
 * snapshot is one array copy, not a walk over 10,000 handles. A removal marks the array stale; it is rebuilt once,
 * on the next read, so clearing thousands of finished tasks stays linear.
 */
export class TaskTable {
  readonly #handles = new Map<string, TaskHandle>();
  readonly #index = new Map<string, number>();
  #snapshots: TaskSnapshot[] = [];
  #totalBytes = 0;
  #sentBytes = 0;
  #stale = false;

  get(id: string): TaskHandle | undefined {
    return this.#handles.get(id);
  }

  /** How many tasks the page lists. */
  get size(): number {
    return this.#handles.size;
  }

  has(id: string): boolean {
    return this.#handles.has(id);
  }

  values(): IterableIterator<TaskHandle> {
    return this.#handles.values();
  }

  add(task: TaskHandle): void {
    this.#handles.set(task.id, task);
    if (this.#stale) return;
    this.#index.set(task.id, this.#snapshots.push(task.snapshot) - 1);
    this.#totalBytes += task.snapshot.total;
    this.#sentBytes += task.snapshot.bytesSent;
  }

  delete(id: string): void {
    this.#handles.delete(id);
    this.#stale = true;
  }

  /** Call after replacing `task.snapshot`. */
  update(task: TaskHandle): void {
    const at = this.#index.get(task.id);
    if (this.#stale || at === undefined) return;
    const before = this.#snapshots[at];
    this.#snapshots[at] = task.snapshot;
    this.#totalBytes += task.snapshot.total - before.total;
    this.#sentBytes += task.snapshot.bytesSent - before.bytesSent;
  }

  /**
   * The task is no longer this page's to show (another account's): it leaves the list, and a `done` still waiting
   * rejects with `auth`. Its upload goes on under its own account.
   */
  leave(task: TaskHandle): void {
    this.delete(task.id);
    if (!isFinal(task.snapshot.state))
      task.settle.reject(
        new UploadError({ code: 'auth', message: 'the upload belongs to another account than the one signed in here' }),
      );
  }

  /** Fails every task (the worker never started): each row shows `error`, each `done` rejects with it. */
  failEvery(error: UploadErrorInfo): void {
    for (const task of this.#handles.values()) {
      task.snapshot = { ...task.snapshot, state: 'failed', error };
      this.update(task);
      task.settle.reject(new UploadError(error));
    }
  }

  read(): { tasks: TaskSnapshot[]; totalBytes: number; sentBytes: number } {
    if (this.#stale) this.#rebuild();
    return { tasks: this.#snapshots.slice(), totalBytes: this.#totalBytes, sentBytes: this.#sentBytes };
  }

  #rebuild(): void {
    this.#stale = false;
    this.#snapshots = [];
    this.#index.clear();
    this.#totalBytes = 0;
    this.#sentBytes = 0;
    for (const task of this.#handles.values()) this.add(task);
  }
}

/** A task's first snapshot, listed (queued) the moment it is added, before the worker has it. */
export function queuedSnapshot(id: string, info: FileInfo, options: AddOptions, size: number): TaskSnapshot {
  return {
    id,
    name: info.name,
    ...(options.relativePath && { relativePath: options.relativePath }),
    type: info.type,
    state: 'queued',
    total: size,
    bytesSent: 0,
    bytesAcknowledged: 0,
    speed: 0,
    ...(options.convertTo && { convertTo: options.convertTo }),
  };
}

/** Name, type and date of what `add` was given (a `Blob` has only a type). */
export function fileInfo(file: File | Blob): FileInfo {
  const asFile = file as Partial<File>;
  return { name: asFile.name ?? 'Untitled', type: file.type, lastModified: asFile.lastModified ?? 0 };
}
