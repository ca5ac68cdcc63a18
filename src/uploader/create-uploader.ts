import { proxy, wrap, type Remote } from 'comlink';
import { TaskHandle, type Settle } from './task-handle.ts';
import { TaskTable } from './task-table.ts';
import type {
  AddOptions,
  InterruptedUpload,
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

/** How long the worker may take to answer its first call before tasks fail (a wrong worker URL hangs silently). */
const WORKER_START_TIMEOUT_MS = 15_000;

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

  constructor(options: CreateUploaderOptions) {
    super();
    if (options.service) this.remote = options.service;
    else {
      this.worker = options.worker ?? new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
      this.remote = wrap<UploadWorkerService>(this.worker);
    }
    const nav = (globalThis as { navigator?: { onLine?: boolean } }).navigator;
    this.online = nav?.onLine !== false;
    const { getAccessToken, worker: _worker, service: _service, ...rest } = options;
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
    return this.start(info, options, (id) => this.remote.add(id, file, info, options), file.size);
  }

  task(id: string): UploadTask | undefined {
    return this.tasks.get(id);
  }

  async interrupted(): Promise<InterruptedUpload[]> {
    await this.ready;
    const list = await this.remote.interrupted();
    if (list.length > 0) this.dispatchEvent(new CustomEvent('interrupted-found', { detail: list }));
    return list;
  }

  async resumeInterrupted(id: string, file?: File): Promise<UploadTask> {
    await this.ready;
    const source = await this.remote.interruptedSource(id);
    if (!source) throw new UploadError({ code: 'not-found', message: `no interrupted upload ${id}` });
    let blob: Blob | undefined = file ?? source.blob;
    if (!blob && source.handle) blob = await fileFromHandle(source.handle);
    if (!blob) throw new UploadError({ code: 'file-changed', message: `choose the file ${source.info.name} again to resume it` });
    const info = file ? fileInfo(file) : source.info;
    const task = this.start(info, source.options, (taskId) => this.remote.resumeInterrupted(taskId, id, blob, info), blob.size);
    return task;
  }

  async discardInterrupted(id: string): Promise<void> {
    await this.ready;
    await this.remote.discardInterrupted(id);
  }

  remove(id: string): void {
    const task = this.tasks.get(id);
    if (!task || !['done', 'failed', 'cancelled'].includes(task.state)) return;
    this.tasks.delete(id);
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
    void sent.then(() => this.settleWith(id, settle)).catch((error: unknown) => this.failTask(task, error));
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

  /** The task could not even be handed to the worker (or re-armed there): it fails here, with an `error` event. */
  private failTask(task: TaskHandle, error: unknown): void {
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
    const scope = globalThis as { addEventListener?: EventTarget['addEventListener']; removeEventListener?: EventTarget['removeEventListener'] };
    if (typeof scope.addEventListener !== 'function') return () => undefined;
    const update = (online: boolean) => () => {
      this.online = online;
      void this.ready.then(() => this.remote.setOnline(online));
      this.scheduleChange(0);
    };
    const online = update(true);
    const offline = update(false);
    scope.addEventListener('online', online);
    scope.addEventListener('offline', offline);
    return () => {
      scope.removeEventListener?.('online', online);
      scope.removeEventListener?.('offline', offline);
    };
  }
}

function fileInfo(file: File | Blob): FileInfo {
  const asFile = file as Partial<File>;
  return { name: asFile.name ?? 'Untitled', type: file.type, lastModified: asFile.lastModified ?? 0 };
}

/** Reads a stored handle's file, asking for read permission once if the browser wants it (needs a user gesture). */
async function fileFromHandle(handle: FileSystemFileHandle): Promise<File> {
  type PermissionHandle = FileSystemFileHandle & {
    queryPermission?: (d: { mode: 'read' }) => Promise<PermissionState>;
    requestPermission?: (d: { mode: 'read' }) => Promise<PermissionState>;
  };
  const h = handle as PermissionHandle;
  if ((await h.queryPermission?.({ mode: 'read' })) === 'prompt') await h.requestPermission?.({ mode: 'read' });
  return handle.getFile();
}

let persistenceAsked = false;

/**
 * Asks the browser once per page to keep the kit's IndexedDB data under storage pressure. `persist()` exists only in
 * windows (not in the worker); a refusal changes nothing, records may just be evicted under pressure.
 */
function requestPersistentStorage(): void {
  if (persistenceAsked) return;
  persistenceAsked = true;
  const storage = (globalThis as { navigator?: { storage?: { persist?: () => Promise<boolean> } } }).navigator?.storage;
  try {
    void storage?.persist?.().catch(() => undefined);
  } catch {
    // No storage manager here (SSR, old browsers): nothing to ask.
  }
}

/** Rejects when the worker reports a load error or does not answer in time. */
function withTimeout(first: Promise<void>, worker: Worker | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${WORKER_START_TIMEOUT_MS} ms`)), WORKER_START_TIMEOUT_MS);
    worker?.addEventListener('error', (event) => reject(new Error((event as ErrorEvent).message || 'worker script failed to load')), { once: true });
    first.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}
