/**
 * The headless API's view of the uploader's state: plain, immutable data for a UI to draw. `TaskView` is the
 * uploader's `TaskSnapshot` typed as a union on `state`, so a `switch (task.state)` narrows what each state carries.
 */
import type { RetryInfo, StoreFile, TaskSnapshot, TaskState, UploadErrorInfo } from '../uploader/index.ts';

/** What every task carries, whatever its state. */
export type TaskBase = Readonly<Omit<TaskSnapshot, 'state' | 'retry' | 'error' | 'file'>>;

/**
 * One task as a union on `state`: `retrying` carries why and when (`retry`), `failed` its `error`, `done` the stored
 * `file`. The same object the uploader's snapshot holds (the engine sets these fields with the state); only its type
 * is narrower.
 */
export type TaskView =
  | (TaskBase & {
      readonly state: Exclude<TaskState, 'retrying' | 'failed' | 'done'>;
      readonly retry?: undefined;
      readonly error?: UploadErrorInfo;
      readonly file?: undefined;
    })
  | (TaskBase & {
      readonly state: 'retrying';
      readonly retry: RetryInfo;
      readonly error?: undefined;
      readonly file?: undefined;
    })
  | (TaskBase & {
      readonly state: 'failed';
      readonly error: UploadErrorInfo;
      readonly retry?: undefined;
      readonly file?: undefined;
    })
  | (TaskBase & {
      readonly state: 'done';
      readonly file: StoreFile;
      readonly retry?: undefined;
      readonly error?: undefined;
    });

/** The uploads at one moment: the same object until something changes, so `===` tells a change. */
export interface UploadsSnapshot {
  /** Every task of the uploader, in the order they were added (tasks adopted from the shared engine included). */
  readonly tasks: readonly TaskView[];
  /** Bytes of every task still in the list, and of those bytes sent so far. */
  readonly totalBytes: number;
  readonly sentBytes: number;
  /** Whether the browser is online (always true on the server). */
  readonly online: boolean;
  /** Tasks that have not ended (queued, uploading, paused, retrying, verifying). */
  readonly active: number;
}

/** The one empty snapshot: what the server renders and a browser shows before the uploader has answered. */
export const EMPTY_UPLOADS: UploadsSnapshot = Object.freeze({
  tasks: Object.freeze([]),
  totalBytes: 0,
  sentBytes: 0,
  online: true,
  active: 0,
});
