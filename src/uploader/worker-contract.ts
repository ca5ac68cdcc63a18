/**
 * Everything that crosses between a page and the worker hosting its engine, in one place: the messages' shapes and
 * the events. `Remote<UploadWorkerService>` (comlink) is the call protocol; these are its arguments and answers.
 */
import type { AddOptions, StoreFile, TaskSnapshot, UploadErrorInfo, UploaderHost } from './types.ts';

/** Events a task reports; `progress` is throttled by its job, the others are sent as they happen. */
export type JobEvent = 'start' | 'progress' | 'retry' | 'success' | 'error' | 'change';

/**
 * What a page hears of its engine's tasks: the jobs' events; `removed` when a page dropped a finished task; `left`
 * when the task is no longer this page's to see (the page's account changed, or signed out): it leaves the list.
 */
export type PageEvent = JobEvent | 'removed' | 'left';

/** One task event as it crosses to the main thread (in batches: `host/event-batch.ts`). */
export type TaskEvent = readonly [event: PageEvent, snapshot: TaskSnapshot];

/** The File fields the engine reads, sent beside the Blob (a Blob sent alone loses them). */
export interface FileInfo {
  name: string;
  type: string;
  lastModified: number;
}

/**
 * A command the page gave a task before the engine had it (in the turn of its `add`, or while its add was on its
 * way): it travels with the add, or right behind it on the same port, and the engine applies it as the task arrives,
 * before the task may send anything. A `resume` after a `pause` takes the pause back; a `cancel` stays.
 */
export type HeldCommand = 'pause' | 'cancel';

/** One file for `addMany`: the arguments of `add`, and the command the page gave the task before sending it. */
export type AddRequest = readonly [taskId: string, blob: Blob, info: FileInfo, options: AddOptions, held?: HeldCommand];

/** How one add of `addMany` went: the task's first snapshot, or why it was not queued. */
export type AddAnswer = { ok: true; snapshot: TaskSnapshot } | { ok: false; error: UploadErrorInfo };

/** How a task ended, as plain data (an Error's class and code do not survive structured clone). */
export type TaskResult = ({ ok: true; file: StoreFile } | { ok: false; error: UploadErrorInfo }) & {
  /** The task's final snapshot: events travel on their own channel and may arrive after this answer. */
  snapshot?: TaskSnapshot;
};

/** What a page learns when it attaches: which host runs the engine, and every task of its account it already has. */
export interface Attachment {
  host: UploaderHost;
  tasks: TaskSnapshot[];
}

/** What a page tells the worker about itself when it attaches. */
export interface PageState {
  online?: boolean;
  /** A Web Lock the page holds while it lives; once the worker is granted it, the page is gone. */
  pageLock?: string;
  /** The account the app named (`UploaderOptions.account`): binds without asking the service who the token is. */
  account?: string;
  /** The page's access token now, so the worker learns its account without asking the page back. */
  token?: string;
  /** The page ends each turn of adds with `turnEnded`: its tasks start after it (`host/arriving-tasks.ts`). */
  turns?: boolean;
}

/** What `signOut` does with the account's uploads (see `Uploader.signOut`). */
export type SignOutUploads = 'cancel' | 'finish' | 'keep';
