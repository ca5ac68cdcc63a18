import type { Remote } from 'comlink';
import { hookedSend } from './hooked-add.ts';
import { fileToResume, resumeAllInterrupted } from './resume-all.ts';
import { AddBatch, type TaskCommand } from './add-batch.ts';
import { ChangeSignal } from './change-signal.ts';
import { UploaderEvents } from './uploader-events.ts';
import { TaskHandle, type TaskCommands } from './task-handle.ts';
import { fileInfo, queuedSnapshot, TaskTable } from './task-table.ts';
import { requestPersistentStorage, watchPage } from './page-environment.ts';
import { holdingNavigation } from './navigation-hold.ts';
import { resolveSettings } from '../contract/settings.ts';
import { connectEngine, holdPageLock, tokenNow, type StartedHost } from './start-host.ts';
import type {
  AddFolderOptions,
  AddOptions,
  BeforeUpload,
  InterruptedUpload,
  ResumeAllResult,
  TaskSnapshot,
  Uploader,
  UploaderHost,
  UploaderSnapshot,
  UploadTask,
} from '../contract/types.ts';
import type { UploaderOptions } from '../contract/options.ts';
import { errorInfoOf, UploadError } from '../contract/upload-error.ts';
import { isFinal } from '../contract/task-state.ts';
import type { FileInfo, PageEvent, SignOutUploads, TaskEvent, WorkerCalls } from '../contract/worker-contract.ts';

/** Options of `createUploader`, plus a way to run the service in the page. */
export type CreateUploaderOptions = UploaderOptions & {
  /** Talk to this service instead of a worker (an in-page `UploadWorkerService`, or a comlink remote of one). */
  service?: Remote<WorkerCalls> | WorkerCalls;
};

/** The uploader as the page sees it: lives on the main thread, hands files to the engine's worker, keeps snapshots. */
export class MainThreadUploader extends UploaderEvents implements Uploader {
  private readonly tasks = new TaskTable();
  /** Settles once the worker knows the task (after any resize): its commands and thumbnail wait for it. */
  private readonly known = new Map<string, Promise<unknown>>();
  private remote!: Remote<WorkerCalls> | WorkerCalls;
  private readonly ready: Promise<void>;
  private leave = (): void => undefined; // settles `gone`: defined before it, whatever the class-field semantics
  /** Settles once the page is done with its engine (`destroy`, or it never started): no file waits for it then. */
  private readonly gone = new Promise<void>((resolve) => (this.leave = resolve));
  /** Settles once the page's attach is on its way (to `early`): files are handed over then, not after its answer. */
  private readonly posted: Promise<void>;
  private early?: typeof this.remote;
  private started?: StartedHost;
  private online = true;
  private readonly changes = new ChangeSignal(() => this.emit('change', this.snapshot), this.tasks);
  /** The snapshot built since the last change of any task; `undefined` until someone asks again. */
  private latest?: UploaderSnapshot;
  private readonly detach: () => void;
  private readonly beforeUpload: BeforeUpload | undefined;
  /** The latest list of interrupted uploads: `resumeAllInterrupted` asks for their handles' permission at once. */
  private lastInterrupted: InterruptedUpload[] = [];
  private readonly pageLock = holdPageLock();
  private readonly adds: AddBatch;
  /** The page's token now: files chosen now belong to its account. */
  private readonly token: () => Promise<string | undefined>;
  host?: UploaderHost;

  constructor(options: CreateUploaderOptions) {
    super();
    const settings = resolveSettings(options);
    const nav = (globalThis as { navigator?: { onLine?: boolean } }).navigator;
    this.online = nav?.onLine !== false;
    this.beforeUpload = options.beforeUpload;
    this.token = () => tokenNow(options.getAccessToken);
    this.adds = new AddBatch(() => this.early ?? this.remote, settings.imageResize !== undefined);
    let posted!: () => void;
    this.posted = new Promise((resolve) => (posted = resolve));
    this.ready = connectEngine(options, settings, {
      getAccessToken: options.getAccessToken,
      account: options.account,
      posted: (remote) => {
        this.early = remote;
        posted();
        this.adds.resend(); // batches sent to a worker that never answered (the shared one) go to this one
      },
      onEvent: (event, snapshot) => this.onEvent(event, snapshot),
      onEvents: (events) => this.onEvents(events),
      online: this.online,
      pageLock: this.pageLock.name,
    }).then(({ remote, started, attachment }) => {
      this.remote = remote;
      this.started = started;
      this.host = started?.host ?? attachment.host;
      for (const snapshot of attachment.tasks) this.adopt(snapshot);
      // An adopted task's end may have come on the events' port ahead of the attachment: asked for once, for all.
      if (attachment.tasks.length) void this.catchUp().catch(() => undefined);
    });
    this.ready.catch((error: unknown) => this.failAll(error));
    this.detach = watchPage(
      (online) => {
        this.online = online;
        void this.ready.then(() => this.remote.setOnline(online));
        this.scheduleChange();
      },
      () => void this.catchUp().catch(() => undefined),
    );
    if (settings.persist) requestPersistentStorage();
    void this.ready.then(() => this.interrupted()).catch(() => undefined);
  }

  /** Built once per change (one array copy: `task-table.ts`); read-only, the next change brings a new one. */
  get snapshot(): UploaderSnapshot {
    return (this.latest ??= { ...this.tasks.read(), online: this.online });
  }

  add(file: File | Blob, options: AddOptions = {}): UploadTask {
    const info = fileInfo(file);
    const send = this.beforeUpload
      ? hookedSend(
          {
            snapshot: (id) => this.tasks.get(id)?.snapshot,
            amend: (id, snapshot) => {
              const task = this.tasks.get(id)!;
              task.snapshot = snapshot;
              this.tasks.update(task);
              this.scheduleChange();
            },
            send: (id, next, nextInfo, nextOptions) => this.adds.send(id, next, nextInfo, nextOptions),
          },
          this.beforeUpload,
          file,
          options,
        )
      : (id: string) => this.adds.send(id, file, info, options);
    return this.start(info, options, send, file.size, true);
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
    if (list.length > 0) this.emit('interrupted-found', list);
    return list;
  }

  async resumeInterrupted(id: string, chosen?: File): Promise<UploadTask> {
    await this.ready;
    const given = chosen && { file: chosen, info: fileInfo(chosen) };
    const { file, info, options } = await fileToResume(this.remote, id, given);
    return this.start(info, options, (taskId) => this.remote.resumeInterrupted(taskId, id, file, info), file.size);
  }

  resumeAllInterrupted(): Promise<ResumeAllResult> {
    return resumeAllInterrupted(
      this.lastInterrupted,
      () => this.interrupted(),
      (id) => this.resumeInterrupted(id),
    );
  }

  async discardInterrupted(id: string): Promise<void> {
    await this.ready;
    await this.remote.discardInterrupted(id);
  }

  remove(id: string): void {
    if (!isFinal(this.tasks.get(id)?.state ?? 'queued')) return; // not listed, or not ended
    this.forget(id);
    void this.ready.then(() => this.remote.remove(id));
  }

  /** Drops a task from the list; `leaving`: one another account's, whose `done` rejects if it still waits. */
  private forget(id: string, leaving?: TaskHandle): void {
    if (leaving) this.tasks.leave(leaving);
    this.tasks.delete(id);
    this.known.delete(id);
    this.scheduleChange();
  }

  pauseAll(): void {
    for (const task of this.tasks.values()) this.adds.hold(task.id, 'pause'); // those on their way to the engine
    void this.ready.then(() => this.remote.pauseAll());
  }

  resumeAll(): void {
    for (const task of this.tasks.values()) this.adds.hold(task.id, 'resume');
    void this.ready.then(() => this.remote.resumeAll());
  }

  cancelAll(): void {
    for (const task of this.tasks.values()) if (!isFinal(task.state)) task.cancel();
  }

  retryFailed(): void {
    for (const task of this.tasks.values()) if (task.state === 'failed') task.retry();
  }

  async signOut({ uploads = 'cancel' }: { uploads?: SignOutUploads } = {}): Promise<void> {
    await Promise.allSettled(this.known.values()); // files still on their way to the engine go the same way
    await this.ready;
    await this.remote.signOut(uploads);
    for (const task of [...this.tasks.values()]) this.forget(task.id, task);
    this.changes.flush(); // when `signOut` resolves, the list is already empty: not a frame later
  }

  async accountChanged(account?: string): Promise<void> {
    await this.ready;
    const left = await this.remote.rebind(await this.token(), account); // the previous account's: gone when it resolves
    for (const task of left.map((id) => this.tasks.get(id))) if (task) this.forget(task.id, task);
    this.changes.flush();
  }

  /**
   * This page is done with the uploader. With a dedicated worker every upload stops (its session stays for the next
   * visit) and the worker ends; with the site's shared worker the page only lets go, and its uploads go on.
   */
  destroy(): void {
    this.leave();
    this.detach();
    this.changes.stop();
    this.pageLock.release();
    void this.ready
      .then(() => this.remote.destroy())
      .catch(() => undefined)
      .finally(() => this.started?.end());
  }

  /** Commands of a task: with its add until the engine has it (`AddBatch.hold`), then once `known` has settled. */
  private commands(known: () => Promise<unknown>, handle: () => TaskHandle): TaskCommands {
    const command = (taskId: string, name: TaskCommand) =>
      this.adds.hold(taskId, name) ||
      void known()
        .then(() => this.remote[name](taskId))
        .catch(() => undefined);
    return {
      pause: (taskId) => command(taskId, 'pause'),
      resume: (taskId) => command(taskId, 'resume'),
      cancel: (taskId) => command(taskId, 'cancel'),
      // The handle has just set its snapshot back to queued, with a new `done` that the attempt's end settles.
      retry: (taskId) => {
        this.tasks.update(handle());
        this.scheduleChange();
        void known()
          .then(() => this.remote.resume(taskId))
          .catch((error: unknown) => this.failTask(handle(), error));
      },
    };
  }

  /**
   * A task this page did not add — another page or tab of the site added it to the shared engine, before or after
   * this page attached: listed like the page's own, with working commands and a `done` that settles with it.
   */
  private adopt(snapshot: TaskSnapshot): void {
    if (this.tasks.has(snapshot.id)) return;
    const task: TaskHandle = new TaskHandle(
      snapshot,
      this.commands(
        () => this.ready,
        () => task,
      ),
    );
    this.tasks.add(task);
    this.scheduleChange();
    if (isFinal(snapshot.state)) task.settleFrom(snapshot);
  }

  /** Every task as the engine has it now, for events this page missed (the back/forward cache) or had too early. */
  private async catchUp(): Promise<void> {
    await this.ready;
    for (const snapshot of await this.remote.tasks()) {
      if (this.tasks.has(snapshot.id)) this.onEvent('change', snapshot);
      else if (!isFinal(snapshot.state)) this.adopt(snapshot);
    }
  }

  /** Lists a task and hands it to the engine with `send`; its end arrives as an event (`onEvent`) and settles `done`. */
  private start(
    info: FileInfo,
    options: AddOptions,
    send: (id: string) => Promise<TaskSnapshot> | TaskSnapshot,
    size: number,
    batched = false,
  ): TaskHandle {
    const id = crypto.randomUUID();
    if (batched) this.adds.expect(id); // before `send`, which may post it at once
    const snapshot = queuedSnapshot(id, info, options, size);
    let known: Promise<unknown> = Promise.resolve();
    const task: TaskHandle = new TaskHandle(
      snapshot,
      this.commands(
        () => known,
        () => task,
      ),
    );
    this.tasks.add(task);
    this.latest = undefined;
    this.emit('add', { ...snapshot });
    this.scheduleChange();
    // Handed over as soon as the page's attach is on its way, not after its answer: a page may be leaving. Once it is,
    // inside `add`, so the engine can start on the first files of a long loop of adds while the page goes on with it.
    const sent = this.early
      ? new Promise<TaskSnapshot>((resolve) => resolve(send(id)))
      : this.posted.then(() => send(id));
    known = sent;
    this.known.set(id, sent);
    // Leaving is confirmed until the engine answers: a file posted to a worker still starting dies with the page.
    void holdingNavigation(Promise.race([sent, this.gone])).catch(() => undefined);
    void sent
      // Another page of the site was adding the same file to the same place: this task becomes that one. (A resized
      // image's sizes come as an event: `UploadWorkerService.add`.)
      .then((first) => first.id !== id && this.becomeShared(task, first))
      .catch((error: unknown) => this.failTask(task, error));
    return task;
  }

  /** `task` (added here) turned out to be `first`, another page's task for the same file: one row, one upload. */
  private becomeShared(task: TaskHandle, first: TaskSnapshot): void {
    this.tasks.delete(task.id);
    this.tasks.delete(first.id);
    task.snapshot = first;
    this.tasks.add(task);
    this.scheduleChange();
    // Its events before this answer went to a handle of its own, or (its end) nowhere: asked for once.
    void this.catchUp().catch(() => undefined);
  }

  /** A task that could not even be handed to the worker (or re-armed there) fails here, with an `error` event; a file
   * the `beforeUpload` hook refused leaves the list instead, with a `reject` event. */
  private failTask(task: TaskHandle, error: unknown): void {
    this.adds.forget(task.id);
    if (error instanceof UploadError && error.code === 'rejected') {
      this.tasks.delete(task.id);
      task.settle.reject(error);
      const { id: taskId, name, relativePath } = task.snapshot;
      const reason = error.reason === 'skipped' ? 'skipped' : 'hook-error';
      this.emit('reject', { taskId, name, relativePath: relativePath ?? name, reason, message: error.message });
      this.scheduleChange();
      return;
    }
    const info = errorInfoOf(error);
    task.snapshot = { ...task.snapshot, state: 'failed', error: info };
    this.tasks.update(task);
    this.latest = undefined;
    task.settle.reject(new UploadError(info));
    this.emit('error', { ...task.snapshot });
    this.scheduleChange();
  }

  /** A batch of task events from the worker, in order: applied one by one, then one `change`. */
  private onEvents(events: TaskEvent[]): void {
    for (const [event, snapshot] of events) this.onEvent(event, snapshot);
  }

  private onEvent(event: PageEvent, snapshot: TaskSnapshot): void {
    const task = this.tasks.get(snapshot.id);
    if (event === 'removed') {
      if (task && isFinal(task.snapshot.state)) this.forget(snapshot.id);
      return;
    }
    // Not this page's account's (any more): it leaves the list, and goes on under its own account.
    if (event === 'left') return task && this.forget(task.id, task);
    // A task another page added after this one attached (an ended one is one this page removed: not back).
    if (!task) return isFinal(snapshot.state) ? undefined : this.adopt(snapshot);
    // A late event of an attempt that has ended must not move the task back, nor announce the end twice.
    if (isFinal(task.snapshot.state) && !isFinal(snapshot.state)) return;
    const repeat = isFinal(snapshot.state) && task.snapshot.state === snapshot.state;
    task.snapshot = snapshot;
    this.tasks.update(task);
    this.latest = undefined;
    if (repeat) return;
    if (event !== 'change') this.emit(event, snapshot);
    // Every task's end comes this way, after its other events: one message a frame for all, not a request per task.
    if (isFinal(snapshot.state)) task.settleFrom(snapshot);
    this.scheduleChange();
  }

  /** Something changed: the next `snapshot` is built anew, and a `change` follows (`change-signal.ts`). */
  private scheduleChange(): void {
    this.latest = undefined;
    this.changes.schedule();
  }

  private failAll(error: unknown): void {
    this.leave();
    const message = `the upload worker did not start: ${(error as Error)?.message ?? error}`;
    this.tasks.failEvery({ code: 'unknown', message });
    this.scheduleChange();
  }
}
