import { EngineHub, type EnginePorts, type PageEvent } from './engine-hub.ts';
import { fingerprintOf, lastModifiedOf } from '../engine/request-metadata.ts';
import { engineKeyOf, type UploaderSettings } from '../settings.ts';
import type {
  AddFolderOptions,
  AddOptions,
  InterruptedUpload,
  StoreFile,
  TaskSnapshot,
  UploadErrorInfo,
  UploaderHost,
} from '../types.ts';
import { UploadError } from '../upload-error.ts';
import type { UploadEngine } from '../engine/engine.ts';
import { isFinal } from '../task-state.ts';
import type { SessionRecord } from '../ports.ts';
import { isDecodableImage } from './images/decodable.ts';
import { eventBatch, type EventBatch, type TaskEvent } from './event-batch.ts';

export type { EnginePorts } from './engine-hub.ts';

/** How a task ended, as plain data (an Error's class and code do not survive structured clone). */
export type TaskResult = ({ ok: true; file: StoreFile } | { ok: false; error: UploadErrorInfo }) & {
  /** The task's final snapshot: events travel on their own channel and may arrive after this answer. */
  snapshot?: TaskSnapshot;
};

/** One file for `addMany`: the arguments of `add`. */
export type AddRequest = readonly [taskId: string, file: Blob, info: FileInfo, options: AddOptions];

/** How one add of `addMany` went: the task's first snapshot, or why it was not queued. */
export type AddAnswer = { ok: true; snapshot: TaskSnapshot } | { ok: false; error: UploadErrorInfo };

/** The File fields the engine reads, sent beside the Blob (a Blob sent alone loses them). */
export interface FileInfo {
  name: string;
  type: string;
  lastModified: number;
}

/** What a page learns when it attaches: which host runs the engine, and every task it already has. */
export interface Attachment {
  host: UploaderHost;
  tasks: TaskSnapshot[];
}

/**
 * The engines of one worker, one per distinct settings: every page connected to a shared worker with the same
 * settings attaches to the same `EngineHub`. `host` says what the worker is; a dedicated worker's engine ends with
 * its page, a shared worker's goes on while the worker lives.
 */
export class EngineHubs {
  readonly #hubs = new Map<string, Promise<EngineHub>>();

  constructor(
    private readonly portsFor: (settings: UploaderSettings) => EnginePorts | Promise<EnginePorts>,
    readonly host: UploaderHost = 'dedicated',
    /** Told when the worker's first task starts and when its last one ends. */
    private readonly onBusy?: (busy: boolean) => void,
  ) {}

  #busyHubs = 0;

  #busy(busy: boolean): void {
    const before = this.#busyHubs;
    this.#busyHubs += busy ? 1 : -1;
    if ((before === 0) !== (this.#busyHubs === 0)) this.onBusy?.(this.#busyHubs > 0);
  }

  /** The hub running these settings, made on first use. */
  hubFor(settings: UploaderSettings): Promise<EngineHub> {
    const key = engineKeyOf(settings);
    let hub = this.#hubs.get(key);
    if (!hub) {
      hub = Promise.resolve(this.portsFor(settings)).then(
        (ports) => new EngineHub(settings, ports, (busy) => this.#busy(busy)),
      );
      this.#hubs.set(key, hub);
      hub.catch(() => this.#hubs.delete(key));
    }
    return hub;
  }
}

/** An error as plain data that crosses threads (structured clone keeps neither an Error's class nor its code). */
function errorInfo(error: unknown): UploadErrorInfo {
  if (error instanceof UploadError) return error.toJSON();
  return { code: 'unknown', message: error instanceof Error ? error.message : String(error) };
}

/** Two adds of the same file to the same place by two pages at once: the second gets the first's task. */
const sameFile = new Map<string, { pageId: string; taskId: string; added: Promise<TaskSnapshot> }>();
/** Entries of ended tasks are dropped when the map doubles, so 10,000 adds cost linear time. */
let pruneAt = 256;

function rememberAdd(
  engine: UploadEngine,
  key: string,
  entry: { pageId: string; taskId: string; added: Promise<TaskSnapshot> },
): void {
  sameFile.set(key, entry);
  if (sameFile.size < pruneAt) return;
  for (const [k, { taskId }] of sameFile) {
    const now = engine.snapshot(taskId);
    if (k !== key && (!now || isFinal(now.state))) sameFile.delete(k);
  }
  pruneAt = Math.max(256, sameFile.size * 2);
}

/**
 * Everything one page asks of the engine it attaches to: `worker.ts` and `shared-worker.ts` expose one instance per
 * connected page with comlink; `Remote<UploadWorkerService>` is the cross-thread protocol, so there are no hand-kept
 * message types. Also usable in the page itself (tests, or where workers are unavailable), with any HTTP port and
 * session store.
 */
export class UploadWorkerService {
  private hub?: EngineHub;
  private readonly hubs: EngineHubs;
  private readonly pageId = crypto.randomUUID();
  private batch?: EventBatch;

  /** `source`: the worker's hubs, or (one page, one engine) the function that picks the adapters for the settings. */
  constructor(source: EngineHubs | ((settings: UploaderSettings) => EnginePorts | Promise<EnginePorts>)) {
    this.hubs = source instanceof EngineHubs ? source : new EngineHubs(source);
  }

  /**
   * Must be called first: attaches the page to the engine for `settings` (made on first use). `getAccessToken` and
   * `onEvent` are comlink proxies to the page. With `onEvents` (what `createUploader` passes) events arrive in
   * batches through it instead, at most one call a frame: across threads each call is a message and its reply.
   * `pageLock`: a Web Lock the page holds while it lives; once the worker is granted it, the page is gone.
   */
  async init(
    settings: UploaderSettings,
    getAccessToken: () => string | Promise<string>,
    onEvent: (event: PageEvent, snapshot: TaskSnapshot) => void,
    onEvents?: (events: TaskEvent[]) => void,
    state: { online?: boolean; pageLock?: string } = {},
  ): Promise<Attachment> {
    if (onEvents) this.batch = eventBatch(onEvents);
    const hub = await this.hubs.hubFor(settings);
    this.hub = hub;
    const tasks = hub.attach(this.pageId, { getAccessToken, send: this.batch?.push ?? onEvent }, state.online ?? true);
    const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
    if (state.pageLock && locks) void locks.request(state.pageLock, () => this.detach()).catch(() => undefined);
    return { host: this.hubs.host, tasks };
  }

  /** Every task's snapshot now (a page back from the back/forward cache catches up with it). */
  tasks(): TaskSnapshot[] {
    return this.need().snapshots();
  }

  /**
   * Queues a file. When another page of a shared engine is adding or uploading the same file (name, size, date,
   * type) to the same place, this page gets that task instead (its snapshot, with the other task's id): the file is
   * uploaded once.
   */
  async add(
    taskId: string,
    file: Blob,
    info: FileInfo,
    options: AddOptions = {},
    resumeId?: string,
  ): Promise<TaskSnapshot> {
    const engine = this.need();
    const key = JSON.stringify([
      engineKeyOf(this.hub!.settings),
      fingerprintOf({ ...info, size: file.size }),
      options.relativePath,
      options.parentId,
      options.updateFileId,
      options.convertTo,
      options.flatten,
    ]);
    const other = sameFile.get(key);
    if (other && other.pageId !== this.pageId) {
      const shared = await other.added.catch(() => undefined);
      const now = shared && engine.snapshot(shared.id);
      if (now && !isFinal(now.state)) return now;
    }
    const added = this.addNow(engine, taskId, file, info, options, resumeId);
    if (this.hubs.host !== 'dedicated') rememberAdd(engine, key, { pageId: this.pageId, taskId, added });
    const snapshot = await added;
    // The other pages attached to a shared engine learn of the task now, not when it starts; this page too when the
    // task is a resized image, whose sizes are not the file's it chose. As it is now: its events may have moved it on.
    const now = engine.snapshot(taskId) ?? snapshot;
    this.hub!.send('change', now, snapshot.originalSize === undefined ? this.pageId : undefined);
    return snapshot;
  }

  /**
   * `add` for many files in one call, answered when every one is queued: across threads each call is a message and
   * its reply, and a page adding 10,000 files one call each kept its main thread busy with 20,000 of them.
   */
  addMany(requests: readonly AddRequest[]): Promise<AddAnswer[]> {
    return Promise.all(
      requests.map(([taskId, file, info, options]) =>
        this.add(taskId, file, info, options).then(
          (snapshot): AddAnswer => ({ ok: true, snapshot }),
          (error: unknown): AddAnswer => ({ ok: false, error: errorInfo(error) }),
        ),
      ),
    );
  }

  private async addNow(
    engine: UploadEngine,
    taskId: string,
    file: Blob,
    info: FileInfo,
    options: AddOptions,
    resumeId?: string,
  ): Promise<TaskSnapshot> {
    const bounds = this.hub!.settings.imageResize;
    if (bounds && isDecodableImage(info.type)) {
      const resized = await (await import('./images/image-jobs.ts')).resizedOf(file, info.name, info.type, bounds);
      if (resized) {
        // The handle reads the original: the resized bytes are kept with the session instead.
        const { handle: _handle, ...rest } = options;
        const sent = { blob: resized.blob, name: resized.name, type: resized.type, lastModified: info.lastModified };
        return engine.add(taskId, { ...sent, originalSize: file.size, keepBlob: true }, rest, resumeId);
      }
    }
    return engine.add(taskId, { blob: file, ...info }, options, resumeId);
  }

  /** A thumbnail of the task's image (see `Uploader.thumbnail`). */
  async thumbnail(taskId: string, size: number): Promise<Blob | undefined> {
    const source = this.hub?.engine.source(taskId);
    return source && isDecodableImage(source.type)
      ? (await import('./images/image-jobs.ts')).thumbnailOf(source.blob, size)
      : undefined;
  }

  /** Creates the folders of `path` under the target; resolves with the deepest one's ID (undefined when flattening). */
  addFolder(path: string, options: AddFolderOptions = {}): Promise<string | undefined> {
    return this.need().addFolder(path, options);
  }

  /** Resolves when the task ends, never rejects: the result says how. */
  async result(taskId: string): Promise<TaskResult> {
    const engine = this.need();
    const result: TaskResult = await engine.done(taskId).then(
      (file) => ({ ok: true, file }),
      (error: unknown) => ({ ok: false, error: errorInfo(error) }),
    );
    this.batch?.flush();
    return { ...result, ...withSnapshot(engine, taskId) };
  }

  pause(taskId: string): void {
    this.need().pause(taskId);
  }
  resume(taskId: string): void {
    this.need().resume(taskId);
  }
  cancel(taskId: string): Promise<void> {
    return this.need().cancel(taskId);
  }
  pauseAll(): void {
    this.need().pauseAll();
  }
  resumeAll(): void {
    this.need().resumeAll();
  }
  /** Drops a finished task, for every page. */
  remove(taskId: string): void {
    const snapshot = this.need().snapshot(taskId);
    this.need().remove(taskId);
    if (snapshot && !this.need().snapshot(taskId)) this.hub!.send('removed', snapshot);
  }
  setOnline(online: boolean): void {
    this.hub?.setOnline(online);
  }
  interrupted(): Promise<InterruptedUpload[]> {
    return this.need().interrupted();
  }

  /**
   * What an interrupted upload needs to resume: the stored Blob or file handle (the main thread asks for the
   * handle's permission, which needs the page), the File fields and its options.
   */
  async interruptedSource(
    id: string,
  ): Promise<{ blob?: Blob; handle?: FileSystemFileHandle; info: FileInfo; options: AddOptions } | undefined> {
    const record = await this.need().record(id);
    if (!record) return undefined;
    return {
      ...(record.blob && { blob: record.blob }),
      ...(record.handle && { handle: record.handle }),
      info: { name: record.name, type: record.type, lastModified: lastModifiedOf(record.fingerprint) },
      options: optionsOf(record),
    };
  }

  /**
   * Why `file` cannot resume the interrupted upload `id`, or `undefined` when it can: `not-found` (no such upload),
   * `file-changed` (name, size, `lastModified`, type or the sampled slices differ from the file the upload began with).
   */
  async checkInterrupted(id: string, file: Blob, info: FileInfo): Promise<UploadErrorInfo | undefined> {
    const record = await this.need().record(id);
    if (!record) return { code: 'not-found', message: `no interrupted upload ${id}` };
    return this.need().resumeProblem(record, { blob: file, ...info });
  }

  /**
   * Resumes a stored session with the file the user chose again (or the one found by `interruptedSource`); the
   * engine refuses a file that is not the one the upload began with (`file-changed`).
   */
  async resumeInterrupted(taskId: string, id: string, file: Blob, info: FileInfo): Promise<TaskSnapshot> {
    const record = await this.need().record(id);
    if (!record) throw new UploadError({ code: 'not-found', message: `no interrupted upload ${id}` });
    // A resized image resumes from the Blob kept with its session, kept again for the next page life.
    const resized = record.originalSize !== undefined && { originalSize: record.originalSize, keepBlob: true };
    return this.need().add(taskId, { blob: file, ...info, ...resized }, optionsOf(record), id);
  }

  discardInterrupted(id: string): Promise<void> {
    return this.need().discard(id);
  }

  /**
   * The page's uploader is destroyed. In a dedicated worker, resolves once every upload has stopped and stored its
   * record (the facade then ends the worker); in a shared one the page only detaches, and its uploads go on.
   */
  async destroy(): Promise<void> {
    this.detach();
    if (this.hubs.host === 'dedicated') await this.hub?.engine.destroy();
  }

  /** The page is gone (its lock was released, or it said so): it hears nothing more, and gives no more tokens. */
  detach(): void {
    this.hub?.detach(this.pageId);
    this.batch = undefined;
  }

  private need(): UploadEngine {
    if (!this.hub) throw new Error('UploadWorkerService.init must be called first');
    return this.hub.engine;
  }
}

/** The `add` options a stored session was started with. */
function optionsOf(record: SessionRecord): AddOptions {
  return {
    metadata: record.metadata,
    ...(record.convertTo && { convertTo: record.convertTo }),
    ...(record.updateFileId && { updateFileId: record.updateFileId }),
    ...(record.handle && { handle: record.handle }),
    ...(record.relativePath && { relativePath: record.relativePath }),
  };
}

function withSnapshot(engine: UploadEngine, taskId: string): { snapshot?: TaskSnapshot } {
  const snapshot = engine.snapshot(taskId);
  return snapshot ? { snapshot } : {};
}
