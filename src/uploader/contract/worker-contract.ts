/**
 * Everything that crosses between a page and the worker hosting its engine, in one place: the calls, the messages'
 * shapes and the events. `Remote<WorkerCalls>` (comlink) is the call protocol; the worker's `UploadWorkerService`
 * answers it, and the page names only this interface, so no module of the worker is typed into the page's half.
 */
import type {
  AddFolderOptions,
  AddOptions,
  InterruptedUpload,
  StoreFile,
  TaskSnapshot,
  UploadErrorInfo,
  UploaderHost,
} from './types.ts';
import type { UploaderSettings } from './settings.ts';

/** Events a task reports; `progress` is throttled by its job, the others are sent as they happen. */
export type JobEvent = 'start' | 'progress' | 'retry' | 'success' | 'error' | 'change';

/**
 * What a page hears of its engine's tasks: the jobs' events; `removed` when a page dropped a finished task; `left`
 * when the task is no longer this page's to see (the page's account changed, or signed out): it leaves the list.
 */
export type PageEvent = JobEvent | 'removed' | 'left';

/** One task event as it crosses to the main thread (in batches: `worker/event-batch.ts`). */
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
export type AddRequest = readonly [taskId: string, file: Blob, info: FileInfo, options: AddOptions, held?: HeldCommand];

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
  /** The page ends each turn of adds with `turnEnded`: its tasks start after it (`worker/arriving-tasks.ts`). */
  turns?: boolean;
}

/** What `signOut` does with the account's uploads (see `Uploader.signOut`). */
export type SignOutUploads = 'cancel' | 'finish' | 'keep';

/**
 * What a page calls on the worker, one instance per connected page (`UploadWorkerService` implements it; its JSDoc
 * says what each call does). Across threads each call is a message and its reply; `getAccessToken`, `onEvent` and
 * `onEvents` are comlink proxies back to the page.
 */
export interface WorkerCalls {
  init(
    settings: UploaderSettings,
    getAccessToken: () => string | Promise<string>,
    onEvent: (event: PageEvent, snapshot: TaskSnapshot) => void,
    onEvents?: (events: TaskEvent[]) => void,
    state?: PageState,
  ): Promise<Attachment>;
  tasks(): TaskSnapshot[];
  add(
    taskId: string,
    file: Blob,
    info: FileInfo,
    options?: AddOptions,
    token?: string,
    held?: HeldCommand,
  ): Promise<TaskSnapshot>;
  turnEnded(): void;
  addMany(requests: readonly AddRequest[], token?: string): Promise<AddAnswer[]>;
  thumbnail(taskId: string, size: number): Promise<Blob | undefined>;
  addFolder(path: string, options?: AddFolderOptions): Promise<string | undefined>;
  result(taskId: string): Promise<TaskResult>;
  pause(taskId: string): Promise<void>;
  resume(taskId: string): Promise<void>;
  cancel(taskId: string): Promise<void>;
  pauseAll(): Promise<void>;
  resumeAll(): Promise<void>;
  remove(taskId: string): Promise<void>;
  setOnline(online: boolean): void;
  interrupted(): Promise<InterruptedUpload[]>;
  rebind(token?: string, account?: string): Promise<string[]>;
  signOut(uploads: SignOutUploads): Promise<void>;
  interruptedSource(
    id: string,
  ): Promise<{ file?: Blob; handle?: FileSystemFileHandle; info: FileInfo; options: AddOptions } | undefined>;
  checkInterrupted(id: string, file: Blob, info: FileInfo): Promise<UploadErrorInfo | undefined>;
  resumeInterrupted(taskId: string, id: string, file: Blob, info: FileInfo): Promise<TaskSnapshot>;
  discardInterrupted(id: string): Promise<void>;
  destroy(): Promise<void>;
  detach(): void;
}
