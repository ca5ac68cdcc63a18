/**
 * Public types of the uploader: the contract between the worker engine, its main-thread facade and the elements.
 * Elements and apps depend only on these types, never on the engine's internals.
 */

/** Where an upload task is in its life. */
export type TaskState =
  'queued' | 'uploading' | 'paused' | 'retrying' | 'verifying' | 'done' | 'failed' | 'cancelled' | 'interrupted';

/** Machine-readable failure codes; elements turn them into words through their i18n object. */
export type UploadErrorCode =
  | 'auth'
  | 'forbidden'
  | 'not-found'
  | 'bad-request'
  | 'too-large'
  | 'conversion'
  | 'integrity'
  | 'retries-exhausted'
  | 'quota-exceeded'
  | 'offline'
  | 'cancelled'
  | 'file-changed'
  | 'rejected'
  | 'unknown';

/** A failure with a code, the HTTP status when one was involved, and the service's own reason and message. */
export interface UploadErrorInfo {
  code: UploadErrorCode;
  message: string;
  status?: number;
  reason?: string;
}

/** Why the engine is waiting before it tries again. */
export interface RetryInfo {
  attempt: number;
  delayMs: number;
  /** `server-error`, `network`, `stall`, `rate-limit`, `offline`, `session-expired`, `auth`. */
  cause: 'server-error' | 'network' | 'stall' | 'rate-limit' | 'offline' | 'session-expired' | 'auth';
  status?: number;
}

/** Metadata for the created file: any subset of the file resource's writable fields. */
export interface FileMetadata {
  name?: string;
  mimeType?: string;
  parents?: string[];
  description?: string;
  [key: string]: unknown;
}

/** The file resource as the service returns it: the client's definition, so the two layers cannot drift. */
import type { StoreFile } from '../../client/resources.ts';
export type { StoreFile };

/** Options for one file handed to `uploader.add`. */
export interface AddOptions {
  metadata?: FileMetadata;
  /** A native kind to convert to, e.g. `application/vnd.svc-apps.spreadsheet`. */
  convertTo?: string;
  /** BCP 47 code for OCR of images and PDFs. */
  ocrLanguage?: string;
  /** Update this existing file instead of creating a new one. */
  updateFileId?: string;
  /** A handle the browser gave for the file, kept so the upload can resume after a reload. */
  handle?: FileSystemFileHandle;
  /**
   * Path inside a dropped or chosen folder (`photos/2026/a.jpg`): shown in the list, and the file is uploaded into
   * that tree of folders under `parentId` (each folder created once), unless `flatten` is set.
   */
  relativePath?: string;
  /** The folder to upload into, overriding the uploader's `parentId` for this file. */
  parentId?: string;
  /** Put the file directly into `parentId`, ignoring the folders of its `relativePath` (default: the uploader's). */
  flatten?: boolean;
}

/** Options of `uploader.addFolder`. */
export interface AddFolderOptions {
  /** The folder to create the path under, overriding the uploader's `parentId`. */
  parentId?: string;
  /** When true nothing is created (the uploader's `flatten` is the default). */
  flatten?: boolean;
}

/** Where the file handed to a `beforeUpload` hook came from. */
export interface BeforeUploadContext {
  /** Path inside a dropped or chosen folder (`photos/2024/a.jpg`); the file name for loose files. */
  relativePath: string;
}

/** What a `beforeUpload` hook may change of one file; what it leaves out stays as it was. */
export interface BeforeUploadChanges {
  /** The name stored on the service (and shown in the list). */
  name?: string;
  /** Merged over the metadata the file was added with (`description`, `parents`, …). */
  metadata?: FileMetadata;
  /** A native kind to convert to; replaces the conversion the file was added with. */
  convertTo?: string;
}

/**
 * A hook's answer: `false` skips the file; a `File` or `Blob` is uploaded instead of it (a `Blob` keeps the file's
 * name); `{ name, metadata, convertTo }` changes what is sent; `true` or nothing uploads it unchanged.
 */
// eslint-disable-next-line @typescript-eslint/no-invalid-void-type -- a user's hook may return nothing at all (a `void` function).
export type BeforeUploadResult = boolean | File | Blob | BeforeUploadChanges | undefined | void;

/**
 * Runs on the main thread for each file before it is handed to the upload worker; may be async. A hook that throws
 * (or rejects) refuses the file, with the error's message as the reason.
 */
export type BeforeUpload = (
  file: File,
  context: BeforeUploadContext,
) => BeforeUploadResult | Promise<BeforeUploadResult>;

/** A file a `beforeUpload` hook refused: the detail of the uploader's `reject` event. */
export interface RejectedUpload {
  /** The task `add` returned; it leaves the list when the file is refused. */
  taskId: string;
  name: string;
  relativePath: string;
  /** `skipped`: the hook returned `false`; `hook-error`: it threw, or returned something it may not. */
  reason: 'skipped' | 'hook-error';
  /** The hook's error message for `hook-error`; a fixed English sentence for `skipped`. */
  message: string;
}

/** A serialisable picture of one task, as the elements render it. */
export interface TaskSnapshot {
  id: string;
  name: string;
  relativePath?: string;
  type: string;
  state: TaskState;
  /** Bytes to send: the file's size, or the resized image's once `imageResize` made a smaller one. */
  total: number;
  /** The chosen file's size, set when `imageResize` replaced it with a resized image (`total` is then what is sent). */
  originalSize?: number;
  /** Bytes handed to the network so far in this page life (drives the progress bar). */
  bytesSent: number;
  /** Bytes the service has confirmed it stored. */
  bytesAcknowledged: number;
  /** Smoothed throughput in bytes per second; 0 when not uploading. */
  speed: number;
  /** Estimated milliseconds left; undefined when unknown. */
  etaMs?: number;
  strategy?: 'multipart' | 'resumable';
  /** True while another tab of this origin uploads this session: the bytes mirror that tab's progress. */
  inOtherTab?: boolean;
  /**
   * The protocol the browser used for this task's latest answered request, as Resource Timing names it
   * (`nextHopProtocol`: `'h2'`, `'h3'`, `'http/1.1'`); undefined until one is answered, where the environment does
   * not report it, and for a service on another origin that sends no `Timing-Allow-Origin` (the browser then hides it).
   */
  protocol?: string;
  convertTo?: string;
  retry?: RetryInfo;
  error?: UploadErrorInfo;
  file?: StoreFile;
  startedAt?: number;
  finishedAt?: number;
}

/** An upload cut short in an earlier page life, found in IndexedDB. */
export interface InterruptedUpload {
  id: string;
  name: string;
  type: string;
  total: number;
  bytesAcknowledged: number;
  updatedAt: number;
  /** Path inside the dropped folder it came from. */
  relativePath?: string;
  /** True when a stored file handle or Blob lets it resume without the user choosing the file again. */
  canResumeWithoutFile: boolean;
  /** The file handle kept with the session (File System Access pickers and drops), whose read permission a resume asks for. */
  handle?: FileSystemFileHandle;
}

/** What `resumeAllInterrupted` did with the interrupted uploads. */
export interface ResumeAllResult {
  /** Uploads going on again, each as a new task. */
  resumed: UploadTask[];
  /**
   * Uploads whose file is no longer the one they began with (size, date or sampled content differ, or it is gone):
   * left for the user to choose again or discard; each with code `file-changed`.
   */
  changed: InterruptedUpload[];
  /** Uploads the user must choose the file for: neither handle nor copy was kept, or read permission was refused. */
  needFile: InterruptedUpload[];
}

/** One upload, as `uploader.add` returns it. */
export interface UploadTask {
  readonly id: string;
  readonly state: TaskState;
  readonly bytesSent: number;
  readonly bytesAcknowledged: number;
  readonly total: number;
  readonly snapshot: TaskSnapshot;
  /**
   * The outcome of the current attempt: resolves with the stored file resource, rejects with an `UploadError`
   * (code `cancelled` after `cancel()`). It settles together with the snapshot's final state and the `success` or
   * `error` event. `retry()` after a failure replaces it with a new pending promise for the retried attempt, so read
   * `task.done` again after calling `retry()`; the earlier promise stays rejected.
   */
  readonly done: Promise<StoreFile>;
  pause(): void;
  resume(): void;
  cancel(): void;
  retry(): void;
}

/** The whole uploader at one moment. */
export interface UploaderSnapshot {
  tasks: TaskSnapshot[];
  online: boolean;
  totalBytes: number;
  sentBytes: number;
}

/** Event names the uploader dispatches, each a `CustomEvent` with the given detail. */
export interface UploaderEventMap {
  add: CustomEvent<TaskSnapshot>;
  start: CustomEvent<TaskSnapshot>;
  progress: CustomEvent<TaskSnapshot>;
  retry: CustomEvent<TaskSnapshot>;
  success: CustomEvent<TaskSnapshot>;
  error: CustomEvent<TaskSnapshot>;
  'interrupted-found': CustomEvent<InterruptedUpload[]>;
  /** A file the `beforeUpload` hook refused (its task left the list; its `done` rejects with code `rejected`). */
  reject: CustomEvent<RejectedUpload>;
  /**
   * Any change of the snapshot, at most once per animation frame (every 100 ms with more than 200 tasks): what a UI
   * draws from. Elements and the headless store re-render on each one and pace nothing again.
   */
  change: CustomEvent<UploaderSnapshot>;
}

/**
 * Which worker runs the uploader's engine: `shared-extended`, one `SharedWorker` for the whole site that outlives
 * navigations and the last page for a while (`extendedLifetime`); `shared`, one for every open page of the site;
 * `dedicated`, a worker of this page's own.
 */
export type UploaderHost = 'shared-extended' | 'shared' | 'dedicated';

/** What the elements need of an uploader; `createUploader` returns one, and stories use a scripted one. */
export interface Uploader extends EventTarget {
  readonly snapshot: UploaderSnapshot;
  /** Which worker runs the engine; `undefined` until it has answered (and for uploaders without a worker). */
  readonly host?: UploaderHost;
  add(file: File | Blob, options?: AddOptions): UploadTask;
  /**
   * Creates the folders of `path` (`photos/empty`) under the target, as a dropped empty directory needs; folders
   * shared with files' relative paths are created once. Resolves with the deepest folder's ID, or undefined when
   * flattening.
   */
  addFolder(path: string, options?: AddFolderOptions): Promise<string | undefined>;
  task(id: string): UploadTask | undefined;
  /** Uploads cut short in an earlier page life. */
  interrupted(): Promise<InterruptedUpload[]>;
  /**
   * Resume an interrupted upload; `file` is needed unless `canResumeWithoutFile`. Rejects with `file-changed`, and
   * starts nothing, when the file (given, kept or read through the kept handle) is not the one the upload began with.
   */
  resumeInterrupted(id: string, file?: File): Promise<UploadTask>;
  /**
   * Resumes every interrupted upload that can go on without a file dialog. Call it inside a click (or key press):
   * read permission for the kept file handles is asked for before anything is awaited, where browsers require a
   * user gesture. Each file is checked first (size, `lastModified`, a sampled hash): changed ones are reported, not
   * resumed.
   */
  resumeAllInterrupted(): Promise<ResumeAllResult>;
  /** Forget an interrupted upload and cancel its session with the service (not one a task or another tab is uploading). */
  discardInterrupted(id: string): Promise<void>;
  /**
   * A thumbnail of the task's image fitting `size` × `size` pixels, upright (EXIF orientation applied), decoded in
   * the worker; `undefined` for files that are not JPEG, PNG, GIF, WebP, AVIF or BMP, or do not decode. Made once per
   * task and size, at most two at a time; the list asks only for the rows it renders.
   */
  thumbnail(id: string, size: number): Promise<Blob | undefined>;
  /** Drop a finished, failed or cancelled task from the list. */
  remove(id: string): void;
  pauseAll(): void;
  resumeAll(): void;
  /** Cancels every task that has not ended (each `done` rejects with `cancelled`). */
  cancelAll(): void;
  /** Tries every failed task again (each gets a fresh `done`, as `task.retry()` gives). */
  retryFailed(): void;
  /**
   * The account signs out on this page. Its uploads leave this page's list at once, and:
   * - `'cancel'` (default): each is cancelled with the service, and every stored session and file copy of the
   *   account is deleted from this browser — what a shared or public computer needs;
   * - `'finish'`: running and queued uploads end with the tokens already given (no page is asked for another; one the
   *   service refuses fails with `auth`), then the account's stored sessions are forgotten;
   * - `'keep'`: they go on, and wait (paused, `auth`) when a new token is needed, until a page of the account is open.
   * Resolves once that is done. Another account's page never sees, controls or sends them, whichever is chosen.
   */
  signOut(options?: { uploads?: 'cancel' | 'finish' | 'keep' }): Promise<void>;
  /**
   * The page's account may have changed without a new uploader: `getAccessToken` now gives another account's token,
   * or the app names another `account`. The list then shows that account's uploads only. (`<store-uploader>` calls it
   * when its `token` or `account` changes.) An uploader made with a `client` is moved by the client's `accountChanged`,
   * the app's one call: this is what it calls.
   */
  accountChanged(account?: string): Promise<void>;
  destroy(): void;
  /** Typed for the uploader's own events: `e.detail` is the snapshot (or list) that event carries. */
  addEventListener<K extends keyof UploaderEventMap>(
    type: K,
    listener: (this: Uploader, event: UploaderEventMap[K]) => void,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: boolean | AddEventListenerOptions,
  ): void;
  removeEventListener<K extends keyof UploaderEventMap>(
    type: K,
    listener: (this: Uploader, event: UploaderEventMap[K]) => void,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: boolean | EventListenerOptions,
  ): void;
}
