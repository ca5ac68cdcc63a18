import type { EngineHub, EnginePorts } from './engine-hub.ts';
import { EngineHubs } from './engine-hubs.ts';
import { fingerprintOf, lastModifiedOf } from '../engine/request-metadata.ts';
import { engineKeyOf, type UploaderSettings } from '../contract/settings.ts';
import type {
  AddFolderOptions,
  AddOptions,
  InterruptedUpload,
  TaskSnapshot,
  UploadErrorInfo,
} from '../contract/types.ts';
import { errorInfoOf, UploadError } from '../contract/upload-error.ts';
import type { UploadEngine } from '../engine/engine.ts';
import { isFinal } from '../contract/task-state.ts';
import type { SessionRecord } from '../contract/ports.ts';
import type {
  AddAnswer,
  AddRequest,
  Attachment,
  FileInfo,
  HeldCommand,
  PageEvent,
  PageState,
  SignOutUploads,
  TaskEvent,
  TaskResult,
  WorkerCalls,
} from '../contract/worker-contract.ts';
import { isDecodableImage } from './images/decodable.ts';
import { eventBatch, type EventBatch } from './event-batch.ts';
import { PageBinding } from './page-binding.ts';
import { ArrivingTasks } from './arriving-tasks.ts';

export type { EnginePorts } from './engine-hub.ts';
export { EngineHubs } from './engine-hubs.ts';

/**
 * How long a page's `init` waits to learn its account before it answers with its own adds only (the account's tasks
 * then arrive as events): a service that does not answer must not keep the page from handing files over.
 */
const ACCOUNT_WAIT_MS = 5_000;

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
 * connected page with comlink; `Remote<WorkerCalls>` (`worker-contract.ts`) is the cross-thread protocol, with its
 * arguments and answers. The page is attached to its account's engine only (`page-binding.ts`): what it
 * lists, hears and controls are that account's tasks. Also usable in the page itself (tests, or where workers are
 * unavailable), with any HTTP port and session store.
 */
export class UploadWorkerService implements WorkerCalls {
  private readonly hubs: EngineHubs;
  private readonly pageId = crypto.randomUUID();
  private batch?: EventBatch;
  private binding?: PageBinding;
  /** Where this page's events go (the batch, or `onEvent` itself). */
  private send?: (event: PageEvent, snapshot: TaskSnapshot) => void;
  /** The tasks this page is adding that have not reached their engine yet, and the commands given them meanwhile. */
  private readonly arriving = new ArrivingTasks();

  /** `hubs`: the worker's hubs, or (one page, one engine) the function that picks the adapters for the settings. */
  constructor(hubs: EngineHubs | ((settings: UploaderSettings) => EnginePorts | Promise<EnginePorts>)) {
    this.hubs = hubs instanceof EngineHubs ? hubs : new EngineHubs(hubs);
  }

  /**
   * Must be called first: attaches the page to the engine for `settings` and its account (made on first use).
   * `getAccessToken` and `onEvent` are comlink proxies to the page. With `onEvents` (what `createUploader` passes)
   * events arrive in batches through it instead, at most one call a frame: across threads each call is a message and
   * its reply. `state.token` (the page's token now) or `state.account` names the account without asking the page back.
   */
  async init(
    settings: UploaderSettings,
    getAccessToken: () => string | Promise<string>,
    onEvent: (event: PageEvent, snapshot: TaskSnapshot) => void,
    onEvents?: (events: TaskEvent[]) => void,
    state: PageState = {},
  ): Promise<Attachment> {
    if (onEvents) this.batch = eventBatch(onEvents);
    this.arriving.turns = state.turns === true;
    const send = this.batch?.push ?? onEvent;
    this.send = send;
    this.binding = new PageBinding(
      this.hubs,
      settings,
      this.pageId,
      { getAccessToken, send },
      state.online ?? true,
      state.account,
    );
    const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
    if (state.pageLock && locks) void locks.request(state.pageLock, () => this.detach()).catch(() => undefined);
    const tasks = await this.binding.firstList(state.token, ACCOUNT_WAIT_MS);
    return { host: this.hubs.host, tasks };
  }

  /** Every task of the page's account now (a page back from the back/forward cache catches up with it). */
  tasks(): TaskSnapshot[] {
    return this.need().hub?.engine.snapshots() ?? [];
  }

  /**
   * Queues a file for the account whose `token` came with it (or, without one, the page's account now). When another
   * page of that account is adding or uploading the same file (name, size, date, type) to the same place, this page
   * gets that task instead (its snapshot, with the other task's id): the file is uploaded once.
   */
  async add(
    taskId: string,
    file: Blob,
    info: FileInfo,
    options: AddOptions = {},
    token?: string,
    held?: HeldCommand,
  ): Promise<TaskSnapshot> {
    // Before any await: a command that arrives behind this add must find the task here.
    const command = this.arriving.arrive(taskId, held);
    try {
      return await this.addArriving(taskId, file, info, options, token, command);
    } finally {
      this.arriving.take(taskId);
    }
  }

  /** The page's turn of adds ended: its tasks of that turn may start, with the commands it gave them (`ArrivingTasks`). */
  turnEnded(): void {
    this.arriving.turnEnded();
  }

  private async addArriving(
    taskId: string,
    file: Blob,
    info: FileInfo,
    options: AddOptions,
    token: string | undefined,
    command: () => Promise<HeldCommand | undefined>,
  ): Promise<TaskSnapshot> {
    const binding = this.need();
    const hub = await binding.hubOf(token);
    const engine = hub.engine;
    const key = JSON.stringify([
      engineKeyOf(hub.settings),
      hub.principal,
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
      if (now && !isFinal(now.state)) {
        // This page's row is that task now: what was given the row is given the task.
        const held = this.arriving.take(taskId);
        if (held === 'cancel') await engine.cancel(now.id);
        else if (held === 'pause') engine.pause(now.id);
        return held ? (engine.snapshot(now.id) ?? now) : now;
      }
    }
    const added = this.addNow(hub, taskId, file, info, options, command);
    if (this.hubs.host !== 'dedicated') rememberAdd(engine, key, { pageId: this.pageId, taskId, added });
    const snapshot = await added;
    // The other pages attached to a shared engine learn of the task now, not when it starts; this page too when the
    // task is a resized image, whose sizes are not the file's it chose, or when it was added to an engine this page
    // is not attached to (its account changed meanwhile: the task leaves its list). As it is now: its events may have
    // moved it on.
    const now = engine.snapshot(taskId) ?? snapshot;
    if (binding.hub !== hub) this.send?.('left', now);
    hub.send('change', now, snapshot.originalSize === undefined ? this.pageId : undefined);
    return snapshot;
  }

  /**
   * `add` for many files in one call, answered when every one is queued: across threads each call is a message and
   * its reply, and a page adding 10,000 files one call each kept its main thread busy with 20,000 of them. `token`:
   * the page's token when the files were chosen; they belong to its account.
   */
  addMany(requests: readonly AddRequest[], token?: string): Promise<AddAnswer[]> {
    return Promise.all(
      requests.map(([taskId, file, info, options, held]) =>
        this.add(taskId, file, info, options, token, held).then(
          (snapshot): AddAnswer => ({ ok: true, snapshot }),
          (error: unknown): AddAnswer => ({ ok: false, error: errorInfoOf(error) }),
        ),
      ),
    );
  }

  private async addNow(
    hub: EngineHub,
    taskId: string,
    file: Blob,
    info: FileInfo,
    options: AddOptions,
    command: () => Promise<HeldCommand | undefined>,
  ): Promise<TaskSnapshot> {
    const bounds = hub.settings.imageResize;
    if (bounds && isDecodableImage(info.type)) {
      const resized = await (await import('./images/image-jobs.ts')).resizedOf(file, info.name, info.type, bounds);
      if (resized) {
        // The handle reads the original: the resized bytes are kept with the session instead.
        const { handle: _handle, ...rest } = options;
        const sent = { file: resized.blob, name: resized.name, type: resized.type, lastModified: info.lastModified };
        return hub.engine.add(taskId, { ...sent, originalSize: file.size, keepFile: true }, rest, undefined, command);
      }
    }
    return hub.engine.add(taskId, { file, ...info }, options, undefined, command);
  }

  /** A thumbnail of the task's image (see `Uploader.thumbnail`). */
  async thumbnail(taskId: string, size: number): Promise<Blob | undefined> {
    const sent = this.binding?.hub?.engine.fileOf(taskId);
    return sent && isDecodableImage(sent.type)
      ? (await import('./images/image-jobs.ts')).thumbnailOf(sent.file, size)
      : undefined;
  }

  /** Creates the folders of `path` under the target; resolves with the deepest one's ID (undefined when flattening). */
  async addFolder(path: string, options: AddFolderOptions = {}): Promise<string | undefined> {
    return (await this.engine()).addFolder(path, options);
  }

  /** Resolves when the task ends, never rejects: the result says how. */
  async result(taskId: string): Promise<TaskResult> {
    const engine = await this.engine();
    const result: TaskResult = await engine.done(taskId).then(
      (file) => ({ ok: true, file }),
      (error: unknown) => ({ ok: false, error: errorInfoOf(error) }),
    );
    this.batch?.flush();
    return { ...result, ...withSnapshot(engine, taskId) };
  }

  // A task's commands: held for it while its add is on its way (`hold`), given to its engine once it is there.
  async pause(taskId: string): Promise<void> {
    if (!this.arriving.hold(taskId, 'pause')) (await this.engine()).pause(taskId);
  }
  async resume(taskId: string): Promise<void> {
    if (!this.arriving.hold(taskId, 'resume')) (await this.engine()).resume(taskId);
  }
  async cancel(taskId: string): Promise<void> {
    if (!this.arriving.hold(taskId, 'cancel')) await (await this.engine()).cancel(taskId);
  }
  async pauseAll(): Promise<void> {
    (await this.engine()).pauseAll();
  }
  async resumeAll(): Promise<void> {
    (await this.engine()).resumeAll();
  }
  /** Drops a finished task, for every page of the account. */
  async remove(taskId: string): Promise<void> {
    const hub = await this.need().hubOf();
    const snapshot = hub.engine.snapshot(taskId);
    hub.engine.remove(taskId);
    if (snapshot && !hub.engine.snapshot(taskId)) hub.send('removed', snapshot);
  }
  setOnline(online: boolean): void {
    this.binding?.setOnline(online);
  }
  async interrupted(): Promise<InterruptedUpload[]> {
    return (await this.engine()).interrupted();
  }

  /**
   * The page's account may have changed: its token is now another account's, or it names another `account`. The
   * page leaves the first account's tasks and is shown the new one's.
   */
  /**
   * The page's account may have changed: resolves with the IDs of the tasks that left its list (the engine it was
   * attached to, when it is now attached to another), so the page drops them before its call resolves, not when their
   * events arrive on the other port.
   */
  async rebind(token?: string, account?: string): Promise<string[]> {
    const binding = this.need();
    const before = binding.hub;
    const shown = before ? before.engine.snapshots().map((task) => task.id) : [];
    await binding.rebind(token, account);
    return binding.hub === before ? [] : shown;
  }

  /**
   * The account signs out on this page (see `Uploader.signOut`): the page leaves its engine, whose uploads are
   * cancelled with their stored sessions and copies (`cancel`), end with the tokens given (`finish`), or wait for the
   * account to come back (`keep`). The page's next token finds its account anew.
   */
  signOut(uploads: SignOutUploads): Promise<void> {
    return this.need().signOut(uploads);
  }

  /**
   * What an interrupted upload needs to resume: the stored Blob or file handle (the main thread asks for the
   * handle's permission, which needs the page), the File fields and its options.
   */
  async interruptedSource(
    id: string,
  ): Promise<{ file?: Blob; handle?: FileSystemFileHandle; info: FileInfo; options: AddOptions } | undefined> {
    const record = await (await this.engine()).record(id);
    if (!record) return undefined;
    return {
      ...(record.file && { file: record.file }),
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
    const engine = await this.engine();
    const record = await engine.record(id);
    if (!record) return { code: 'not-found', message: `no interrupted upload ${id}` };
    return engine.resumeProblem(record, { file, ...info });
  }

  /**
   * Resumes a stored session with the file the user chose again (or the one found by `interruptedSource`); the
   * engine refuses a file that is not the one the upload began with (`file-changed`).
   */
  async resumeInterrupted(taskId: string, id: string, file: Blob, info: FileInfo): Promise<TaskSnapshot> {
    const engine = await this.engine();
    const record = await engine.record(id);
    if (!record) throw new UploadError({ code: 'not-found', message: `no interrupted upload ${id}` });
    // A resized image resumes from the Blob kept with its session, kept again for the next page life.
    const resized = record.originalSize !== undefined && { originalSize: record.originalSize, keepFile: true };
    return engine.add(taskId, { file, ...info, ...resized }, optionsOf(record), id);
  }

  async discardInterrupted(id: string): Promise<void> {
    await (await this.engine()).discard(id);
  }

  /**
   * The page's uploader is destroyed. In a dedicated worker, resolves once every upload has stopped and stored its
   * record (the facade then ends the worker); in a shared one the page only detaches, and its uploads go on.
   */
  async destroy(): Promise<void> {
    const hub = this.binding?.hub;
    this.detach();
    if (this.hubs.host === 'dedicated') await hub?.engine.destroy();
  }

  /** The page is gone (its lock was released, or it said so): it hears nothing more, and gives no more tokens. */
  detach(): void {
    this.binding?.detach();
    this.batch = undefined;
    this.send = undefined;
  }

  private need(): PageBinding {
    if (!this.binding) throw new Error('UploadWorkerService.init must be called first');
    return this.binding;
  }

  /** The engine of the page's account (waiting, as the page's adds do, until the account is known). */
  private async engine(): Promise<UploadEngine> {
    return (await this.need().hubOf()).engine;
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
