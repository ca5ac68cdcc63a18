import { proxy, wrap, type Remote } from 'comlink';
import { loadBeforeUpload } from './before-upload-loader.ts';
import { askToRead, readHandle } from './read-handle.ts';
import { TaskHandle, type Settle } from './task-handle.ts';
import { TaskTable } from './task-table.ts';
import { requestPersistentStorage, watchConnectivity, withTimeout } from './page-environment.ts';
import type {
  AddFolderOptions,
  AddOptions,
  BeforeUpload,
  InterruptedUpload,
  ResumeAllResult,
  TaskSnapshot,
  Uploader,
  UploaderEventMap,
  UploaderOptions,
  UploaderSnapshot,
  UploadTask,
} from './types.ts';
import { UploadError } from './upload-error.ts';
import { validateOptions } from './validate-options.ts';
import type { JobEvent } from './upload-job.ts';
import type { TaskEvent } from './event-batch.ts';
import type { FileInfo, UploadWorkerService, WorkerUploaderOptions } from './worker-service.ts';
import { startWorker } from './trusted-worker.ts';

/** Options of `createUploader`, plus a way to run the service in the page. */
export type CreateUploaderOptions = UploaderOptions & {
  /** Talk to this service instead of a worker (an in-page `UploadWorkerService`, or a comlink remote of one). */
  service?: Remote<UploadWorkerService> | UploadWorkerService;
};

/**
 * Creates the uploader: every byte of upload work runs in a module worker reached through comlink; this object only
 * hands over files and keeps the latest snapshot of each task for rendering. Safe to import during server-side
 * rendering: nothing touches `window` or `Worker` until it is called.
 */
export function createUploader(options: CreateUploaderOptions): Uploader {
  if (typeof options?.getAccessToken !== 'function') {
    throw new UploadError({ code: 'bad-request', message: 'getAccessToken must be a function that returns the bearer token' });
  }
  validateOptions({ ...options, baseUrl: options.baseUrl ?? '' });
  if (options.beforeUpload !== undefined && typeof options.beforeUpload !== 'function') {
    throw new UploadError({ code: 'bad-request', message: 'beforeUpload must be a function (file, { relativePath }) => …' });
  }
  if (!options.service && !options.worker && typeof Worker === 'undefined') {
    throw new UploadError({
      code: 'bad-request',
      message: 'createUploader needs a browser with Web Workers (it was called where there is no Worker, e.g. Node or server-side rendering); create it in the browser, after the page loads',
    });
  }
  return new MainThreadUploader(options);
}

/** The uploader as the page sees it: lives on the main thread, hands files to the upload worker, keeps snapshots. */
class MainThreadUploader extends EventTarget implements Uploader {
  private readonly tasks = new TaskTable();
  /** Settles once the worker knows the task (after any resize): its commands and thumbnail wait for it. */
  private readonly known = new Map<string, Promise<unknown>>();
  private readonly remote: Remote<UploadWorkerService> | UploadWorkerService;
  private readonly ready: Promise<void>;
  private readonly worker?: Worker;
  private online = true;
  private changeTimer?: ReturnType<typeof setTimeout>;
  /** Whether the pending `change` waits for the progress throttle (true) or for the end of this macrotask. */
  private changeThrottled = false;
  /** The snapshot built since the last change of any task; `undefined` until someone asks again. */
  private latest?: UploaderSnapshot;
  private readonly detach: () => void;
  private readonly beforeUpload: BeforeUpload | undefined;
  /** The latest list of interrupted uploads: `resumeAllInterrupted` asks for their handles' permission at once. */
  private lastInterrupted: InterruptedUpload[] = [];

  constructor(options: CreateUploaderOptions) {
    super();
    if (options.service) this.remote = options.service;
    else {
      this.worker = options.worker ?? startWorker(() => new Worker(new URL('./worker.js', import.meta.url), { type: 'module' }));
      this.remote = wrap<UploadWorkerService>(this.worker);
    }
    const nav = (globalThis as { navigator?: { onLine?: boolean } }).navigator;
    this.online = nav?.onLine !== false;
    this.beforeUpload = options.beforeUpload;
    // Functions cannot cross to the worker: the hook stays here, and runs here.
    const { getAccessToken, worker: _worker, service: _service, beforeUpload: _hook, ...rest } = options;
    const init: WorkerUploaderOptions = { ...rest, online: this.online };
    this.ready = withTimeout(
      Promise.resolve(
        this.remote.init(
          init,
          proxy(() => getAccessToken()),
          proxy((event: JobEvent, snapshot: TaskSnapshot) => this.onEvent(event, snapshot)),
          proxy((events: TaskEvent[]) => this.onEvents(events)),
        ),
      ),
      this.worker,
    );
    this.ready.catch((error: unknown) => this.failAll(error));
    this.detach = this.watchConnectivity();
    if (options.persist !== false) requestPersistentStorage();
    void this.ready.then(() => this.interrupted()).catch(() => undefined);
  }

  /**
   * Built once per change, not once per reader (one array copy, totals kept as running sums: `task-table.ts`).
   * Treat it as read-only; the next change brings a new one.
   */
  get snapshot(): UploaderSnapshot {
    return (this.latest ??= { ...this.tasks.read(), online: this.online });
  }

  add(file: File | Blob, options: AddOptions = {}): UploadTask {
    const info = fileInfo(file);
    if (!this.beforeUpload) return this.start(info, options, (id) => this.remote.add(id, file, info, options), file.size);
    // The task is listed (queued) at once, as `add` promises; the worker hears of it once the hook has decided.
    const hook = this.beforeUpload;
    const checked = loadBeforeUpload().then((run) => run(hook, file, options));
    return this.start(
      info,
      options,
      async (id) => {
        const outcome = await checked;
        if (!outcome.ok) throw new UploadError({ code: 'rejected', message: outcome.message, reason: outcome.reason });
        const next = fileInfo(outcome.file);
        const task = this.tasks.get(id);
        if (task && (outcome.file !== file || outcome.options.convertTo !== options.convertTo)) {
          const { convertTo, relativePath } = outcome.options;
          task.snapshot = { ...task.snapshot, name: next.name, type: next.type, total: outcome.file.size, ...(convertTo && { convertTo }), ...(relativePath && { relativePath }) };
          this.tasks.update(task);
          this.scheduleChange(0);
        }
        return this.remote.add(id, outcome.file, next, outcome.options);
      },
      file.size,
    );
  }

  async addFolder(path: string, options: AddFolderOptions = {}): Promise<string | undefined> {
    await this.ready;
    return this.remote.addFolder(path, options);
  }

  task(id: string): UploadTask | undefined {
    return this.tasks.get(id);
  }

  async thumbnail(id: string, size: number): Promise<Blob | undefined> {
    await this.known.get(id)?.catch(() => undefined);
    return this.tasks.has(id) ? this.remote.thumbnail(id, size) : undefined;
  }

  async interrupted(): Promise<InterruptedUpload[]> {
    await this.ready;
    const list = await this.remote.interrupted();
    this.lastInterrupted = list;
    if (list.length > 0) this.dispatchEvent(new CustomEvent('interrupted-found', { detail: list }));
    return list;
  }

  async resumeInterrupted(id: string, file?: File): Promise<UploadTask> {
    await this.ready;
    const source = await this.remote.interruptedSource(id);
    if (!source) throw new UploadError({ code: 'not-found', message: `no interrupted upload ${id}` });
    let blob: Blob | undefined = file ?? source.blob;
    if (!blob && source.handle) blob = await readHandle(source.handle);
    if (!blob) throw new UploadError({ code: 'file-changed', message: `choose the file ${source.info.name} again to resume it` });
    // A kept handle or copy must still read as the same file: its own date and size, the record's name and type.
    const kept = blob as Partial<File>;
    const info = file ? fileInfo(file) : { ...source.info, lastModified: kept.lastModified ?? source.info.lastModified };
    const problem = await this.remote.checkInterrupted(id, blob, info);
    if (problem) throw new UploadError(problem);
    const task = this.start(info, source.options, (taskId) => this.remote.resumeInterrupted(taskId, id, blob, info), blob.size);
    return task;
  }

  async resumeAllInterrupted(): Promise<ResumeAllResult> {
    // Before anything is awaited: browsers grant read permission only inside the user's gesture.
    const asked = new Map<string, Promise<boolean>>();
    for (const u of this.lastInterrupted) if (u.handle) asked.set(u.id, askToRead(u.handle));
    const result: ResumeAllResult = { resumed: [], changed: [], needFile: [] };
    for (const u of await this.interrupted()) {
      if (!u.canResumeWithoutFile || (u.handle && !(await (asked.get(u.id) ?? askToRead(u.handle))))) {
        result.needFile.push(u);
        continue;
      }
      try {
        result.resumed.push(await this.resumeInterrupted(u.id));
      } catch (error) {
        const code = error instanceof UploadError ? error.code : undefined;
        if (code === 'file-changed') result.changed.push(u);
        else if (code !== 'not-found') result.needFile.push(u);
      }
    }
    return result;
  }

  async discardInterrupted(id: string): Promise<void> {
    await this.ready;
    await this.remote.discardInterrupted(id);
  }

  remove(id: string): void {
    const task = this.tasks.get(id);
    if (!task || !['done', 'failed', 'cancelled'].includes(task.state)) return;
    this.tasks.delete(id);
    this.known.delete(id);
    void this.ready.then(() => this.remote.remove(id));
    this.scheduleChange(0);
  }

  pauseAll(): void {
    void this.ready.then(() => this.remote.pauseAll());
  }

  resumeAll(): void {
    void this.ready.then(() => this.remote.resumeAll());
  }

  cancelAll(): void {
    for (const task of this.tasks.values()) if (!['done', 'failed', 'cancelled'].includes(task.state)) task.cancel();
  }

  retryFailed(): void {
    for (const task of this.tasks.values()) if (task.state === 'failed') task.retry();
  }

  destroy(): void {
    this.detach();
    clearTimeout(this.changeTimer);
    void Promise.resolve(this.remote.destroy()).finally(() => this.worker?.terminate());
  }

  override addEventListener<K extends keyof UploaderEventMap>(
    type: K | string,
    listener: ((this: Uploader, event: UploaderEventMap[K]) => void) | EventListenerOrEventListenerObject | null,
    options?: boolean | AddEventListenerOptions,
  ): void {
    super.addEventListener(type, listener as EventListenerOrEventListenerObject | null, options);
  }

  override removeEventListener<K extends keyof UploaderEventMap>(
    type: K | string,
    listener: ((this: Uploader, event: UploaderEventMap[K]) => void) | EventListenerOrEventListenerObject | null,
    options?: boolean | EventListenerOptions,
  ): void {
    super.removeEventListener(type, listener as EventListenerOrEventListenerObject | null, options);
  }

  private start(info: FileInfo, options: AddOptions, send: (id: string) => Promise<TaskSnapshot> | TaskSnapshot, size: number): TaskHandle {
    const id = crypto.randomUUID();
    const snapshot: TaskSnapshot = {
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
    // Commands wait until the worker knows the task: a `pause()` right after `add()` must not miss it.
    let known: Promise<unknown> = Promise.resolve();
    const command = (run: () => unknown) => void known.then(run).catch(() => undefined);
    const task = new TaskHandle(snapshot, {
      pause: (taskId) => command(() => this.remote.pause(taskId)),
      resume: (taskId) => command(() => this.remote.resume(taskId)),
      cancel: (taskId) => command(() => this.remote.cancel(taskId)),
      // The worker re-arms the task (and its own `done`) before the new result is awaited: calls arrive in order.
      retry: (taskId, settle) => {
        // The handle has just set its snapshot back to queued.
        this.tasks.update(task);
        this.scheduleChange(0);
        void known
          .then(() => this.remote.resume(taskId))
          .then(() => this.settleWith(taskId, settle))
          .catch((error: unknown) => this.failTask(task, error));
      },
    });
    this.tasks.add(task);
    this.latest = undefined;
    this.dispatchEvent(new CustomEvent('add', { detail: { ...snapshot } }));
    this.scheduleChange(0);
    const settle = task.settle;
    const sent = this.ready.then(() => send(id));
    known = sent;
    this.known.set(id, sent);
    void sent
      .then((first) => {
        // A resized image is smaller than the file chosen: take the sizes the worker sends, not the state (its
        // events may already have moved the task on).
        if (first.originalSize === undefined) return;
        task.snapshot = { ...task.snapshot, name: first.name, type: first.type, total: first.total, originalSize: first.originalSize };
        this.tasks.update(task);
        this.scheduleChange(0);
      })
      .then(() => this.settleWith(id, settle)).catch((error: unknown) => this.failTask(task, error));
    return task;
  }

  /** Waits in the worker for the end of the task's current attempt and settles that attempt's `done`. */
  private async settleWith(id: string, settle: Settle): Promise<void> {
    const result = await this.remote.result(id);
    // Events come through their own port: apply the final snapshot first, so `done` never settles ahead of it.
    if (result.snapshot) this.onEvent(result.ok ? 'success' : result.snapshot.state === 'failed' ? 'error' : 'change', result.snapshot);
    if (result.ok) settle.resolve(result.file);
    else settle.reject(new UploadError(result.error));
  }

  /**
   * The task could not even be handed to the worker (or re-armed there): it fails here, with an `error` event. A
   * file the `beforeUpload` hook refused leaves the list instead, with a `reject` event.
   */
  private failTask(task: TaskHandle, error: unknown): void {
    if (error instanceof UploadError && error.code === 'rejected') {
      this.tasks.delete(task.id);
      task.settle.reject(error);
      const { id: taskId, name, relativePath } = task.snapshot;
      const reason = error.reason === 'skipped' ? 'skipped' : 'hook-error';
      this.dispatchEvent(new CustomEvent('reject', { detail: { taskId, name, relativePath: relativePath ?? name, reason, message: error.message } }));
      this.scheduleChange(0);
      return;
    }
    const info = error instanceof UploadError ? error.toJSON() : { code: 'unknown' as const, message: String((error as Error)?.message ?? error) };
    task.snapshot = { ...task.snapshot, state: 'failed', error: info };
    this.tasks.update(task);
    this.latest = undefined;
    task.settle.reject(new UploadError(info));
    this.dispatchEvent(new CustomEvent('error', { detail: { ...task.snapshot } }));
    this.scheduleChange(0);
  }

  /** A batch of task events from the worker, in order: applied one by one, then one `change`. */
  private onEvents(events: TaskEvent[]): void {
    for (const [event, snapshot] of events) this.onEvent(event, snapshot);
  }

  private onEvent(event: JobEvent, snapshot: TaskSnapshot): void {
    const task = this.tasks.get(snapshot.id);
    if (!task) return;
    const final = (state: TaskSnapshot['state']) => state === 'done' || state === 'failed' || state === 'cancelled';
    // A late event of an attempt that has ended must not move the task back, nor announce the end twice.
    if (final(task.snapshot.state) && !final(snapshot.state)) return;
    const repeat = final(snapshot.state) && task.snapshot.state === snapshot.state;
    task.snapshot = snapshot;
    this.tasks.update(task);
    this.latest = undefined;
    if (repeat) return;
    if (event !== 'change') this.dispatchEvent(new CustomEvent(event, { detail: snapshot }));
    this.scheduleChange(event === 'progress' ? 100 : 0);
  }

  /**
   * Something changed: the next `snapshot` is built anew. `change` is coalesced: at most one per macrotask, and at
   * most ten a second while only progress moves.
   */
  private scheduleChange(delay: number): void {
    this.latest = undefined;
    if (this.changeTimer !== undefined) {
      if (delay > 0 || !this.changeThrottled) return;
      clearTimeout(this.changeTimer);
    }
    this.changeThrottled = delay > 0;
    this.changeTimer = setTimeout(() => {
      this.changeTimer = undefined;
      this.dispatchEvent(new CustomEvent('change', { detail: this.snapshot }));
    }, delay);
  }

  private failAll(error: unknown): void {
    const message = `the upload worker did not start: ${(error as Error)?.message ?? error}`;
    this.latest = undefined;
    for (const task of this.tasks.values()) {
      task.snapshot = { ...task.snapshot, state: 'failed', error: { code: 'unknown', message } };
      this.tasks.update(task);
      task.settle.reject(new UploadError({ code: 'unknown', message }));
    }
    this.scheduleChange(0);
  }

  private watchConnectivity(): () => void {
    return watchConnectivity((online) => {
      this.online = online;
      void this.ready.then(() => this.remote.setOnline(online));
      this.scheduleChange(0);
    });
  }
}

function fileInfo(file: File | Blob): FileInfo {
  const asFile = file as Partial<File>;
  return { name: asFile.name ?? 'Untitled', type: file.type, lastModified: asFile.lastModified ?? 0 };
}
