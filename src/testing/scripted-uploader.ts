/**
 * A deterministic `Uploader` for stories and element tests: no network, no worker, no timers unless asked. Tasks
 * move only when the script says so (`step()`, `run()`, or `autoplay()` in stories), so every state the elements
 * render — queued, uploading, paused, retrying, verifying, done, failed, cancelled, interrupted, converted — can be
 * shown and asserted exactly. The controls the elements call (pause, resume, cancel, retry, remove, …) change
 * state the way the real engine does and are recorded in `calls` for tests to check.
 */
import type {
  AddFolderOptions,
  AddOptions,
  InterruptedUpload,
  ResumeAllResult,
  RetryInfo,
  StoreFile,
  TaskSnapshot,
  TaskState,
  UploadErrorInfo,
  Uploader,
  UploaderSnapshot,
  UploadTask,
} from '../uploader/types.ts';

/** One scripted change of one task: any subset of its snapshot (state, bytes, speed, retry, error, file…). */
export interface ScriptStep {
  task: string;
  state?: TaskState;
  bytesSent?: number;
  bytesAcknowledged?: number;
  speed?: number;
  etaMs?: number;
  retry?: RetryInfo;
  error?: UploadErrorInfo;
  file?: StoreFile;
  convertTo?: string;
}

/** A task to start with: a name and size plus any other snapshot fields. */
export type SeedTask = Partial<TaskSnapshot> & { name: string; total: number };

/** Options of the scripted uploader. */
export interface ScriptedUploaderOptions {
  tasks?: SeedTask[];
  interrupted?: InterruptedUpload[];
  /** Steps applied in order by `step()`/`run()`/`autoplay()`. */
  script?: ScriptStep[];
  /** When true, `add()` appends a script that uploads the new file in four steps and completes it. */
  autoComplete?: boolean;
  /** What `thumbnail(id, size)` answers (default: nothing, so rows keep their file-type icon). */
  thumbnail?: (task: TaskSnapshot, size: number) => Blob | undefined | Promise<Blob | undefined>;
  /** Ids of interrupted uploads whose file "changed": `resumeAllInterrupted` reports them instead of resuming. */
  changedOnResume?: string[];
}

/** A recorded call of an uploader or task control. */
export interface RecordedCall {
  method: string;
  id?: string;
  file?: File | Blob;
  options?: AddOptions | AddFolderOptions;
  /** The path of an `addFolder` call. */
  path?: string;
}

const ACTIVE: ReadonlySet<TaskState> = new Set(['queued', 'uploading', 'paused', 'retrying', 'verifying']);

/** Builds a script that walks one task from start to done in `parts` progress steps. */
export function uploadScript(id: string, total: number, parts = 4, file?: Partial<StoreFile>): ScriptStep[] {
  const steps: ScriptStep[] = [{ task: id, state: 'uploading', bytesSent: 0, speed: 0 }];
  for (let i = 1; i <= parts; i++) {
    const sent = Math.round((total * i) / parts);
    steps.push({ task: id, bytesSent: sent, bytesAcknowledged: sent, speed: 1_000_000, etaMs: ((total - sent) / 1_000_000) * 1000 });
  }
  steps.push({ task: id, state: 'verifying', speed: 0 });
  steps.push({ task: id, state: 'done', file: { id: `file-${id}`, size: String(total), ...file } });
  return steps;
}

/** The scripted `Uploader`. */
export class ScriptedUploader extends EventTarget implements Uploader {
  /** Every control call, in order, for tests to assert on. */
  readonly calls: RecordedCall[] = [];
  readonly #tasks = new Map<string, TaskSnapshot>();
  readonly #handles = new Map<string, ScriptedTask>();
  #interrupted: InterruptedUpload[];
  #script: ScriptStep[];
  #next = 1;
  #snapshot: UploaderSnapshot = { tasks: [], online: true, totalBytes: 0, sentBytes: 0 };
  #timer: ReturnType<typeof setInterval> | undefined;
  readonly #autoComplete: boolean;
  readonly #thumbnail: ScriptedUploaderOptions['thumbnail'];
  readonly #changedOnResume: ReadonlySet<string>;

  constructor(options: ScriptedUploaderOptions = {}) {
    super();
    this.#thumbnail = options.thumbnail;
    this.#interrupted = [...(options.interrupted ?? [])];
    this.#script = [...(options.script ?? [])];
    this.#autoComplete = options.autoComplete ?? false;
    this.#changedOnResume = new Set(options.changedOnResume ?? []);
    for (const seed of options.tasks ?? []) this.#insert(seed);
    this.#publish(false);
  }

  get snapshot(): UploaderSnapshot {
    return this.#snapshot;
  }

  /** Steps not yet applied. */
  get pendingSteps(): readonly ScriptStep[] {
    return this.#script;
  }

  /** Adds a task in `queued` (the real engine starts it when a slot is free; here the script does). */
  add(file: File | Blob, options: AddOptions = {}): UploadTask {
    this.calls.push({ method: 'add', file, options });
    const name = options.metadata?.name ?? (file instanceof File ? file.name : 'Untitled');
    const id = this.#insert({
      name,
      total: file.size,
      type: file.type,
      ...(options.relativePath ? { relativePath: options.relativePath } : {}),
      ...(options.convertTo ? { convertTo: options.convertTo } : {}),
    });
    if (this.#autoComplete) this.#script.push(...uploadScript(id, file.size, 4, { name, mimeType: options.convertTo ?? file.type }));
    this.#publish(true, 'add', id);
    return this.#handle(id);
  }

  /** Records the call; resolves with a made-up folder ID (undefined when flattening). */
  async addFolder(path: string, options: AddFolderOptions = {}): Promise<string | undefined> {
    this.calls.push({ method: 'addFolder', path, options });
    return options.flatten ? undefined : `folder-${path}`;
  }

  task(id: string): UploadTask | undefined {
    return this.#tasks.has(id) ? this.#handle(id) : undefined;
  }

  async thumbnail(id: string, size: number): Promise<Blob | undefined> {
    this.calls.push({ method: 'thumbnail', id });
    const task = this.#tasks.get(id);
    return task && this.#thumbnail ? this.#thumbnail(task, size) : undefined;
  }

  async interrupted(): Promise<InterruptedUpload[]> {
    this.calls.push({ method: 'interrupted' });
    return [...this.#interrupted];
  }

  async resumeInterrupted(id: string, file?: File): Promise<UploadTask> {
    this.calls.push({ method: 'resumeInterrupted', id, ...(file ? { file } : {}) });
    const found = this.#interrupted.find((u) => u.id === id);
    const existing = this.#tasks.get(id);
    if (!found && !existing) throw new Error(`No interrupted upload ${id}`);
    if (found && !found.canResumeWithoutFile && !file) throw new Error(`Upload ${id} needs its file chosen again`);
    this.#interrupted = this.#interrupted.filter((u) => u.id !== id);
    if (existing) this.#patch(id, { state: 'queued' });
    else if (found) this.#insert({ id, name: found.name, type: found.type, total: found.total, bytesAcknowledged: found.bytesAcknowledged, bytesSent: found.bytesAcknowledged });
    this.#publish(true);
    return this.#handle(id);
  }

  /** Resumes every interrupted upload marked `canResumeWithoutFile`, except those listed in `changedOnResume`. */
  async resumeAllInterrupted(): Promise<ResumeAllResult> {
    this.calls.push({ method: 'resumeAllInterrupted' });
    const result: ResumeAllResult = { resumed: [], changed: [], needFile: [] };
    for (const u of [...this.#interrupted]) {
      if (this.#changedOnResume.has(u.id)) result.changed.push(u);
      else if (!u.canResumeWithoutFile) result.needFile.push(u);
      else result.resumed.push(await this.resumeInterrupted(u.id));
    }
    return result;
  }

  async discardInterrupted(id: string): Promise<void> {
    this.calls.push({ method: 'discardInterrupted', id });
    this.#interrupted = this.#interrupted.filter((u) => u.id !== id);
    if (this.#tasks.get(id)?.state === 'interrupted') this.#tasks.delete(id);
    this.#publish(true);
  }

  remove(id: string): void {
    this.calls.push({ method: 'remove', id });
    const task = this.#tasks.get(id);
    if (!task || ACTIVE.has(task.state)) return;
    this.#tasks.delete(id);
    this.#publish(true);
  }

  pauseAll(): void {
    this.calls.push({ method: 'pauseAll' });
    for (const t of this.#tasks.values()) if (t.state === 'uploading' || t.state === 'queued' || t.state === 'retrying') this.#patch(t.id, { state: 'paused', speed: 0 });
    this.#publish(true);
  }

  resumeAll(): void {
    this.calls.push({ method: 'resumeAll' });
    for (const t of this.#tasks.values()) if (t.state === 'paused') this.#patch(t.id, { state: 'queued' });
    this.#publish(true);
  }

  cancelAll(): void {
    this.calls.push({ method: 'cancelAll' });
    for (const t of this.#tasks.values()) if (!['done', 'failed', 'cancelled'].includes(t.state)) this.#patch(t.id, { state: 'cancelled', speed: 0 });
    this.#publish(true);
  }

  retryFailed(): void {
    this.calls.push({ method: 'retryFailed' });
    for (const t of this.#tasks.values()) if (t.state === 'failed') this.#patch(t.id, { state: 'queued' });
    this.#publish(true);
  }

  destroy(): void {
    this.calls.push({ method: 'destroy' });
    this.stop();
  }

  /** Appends steps to the script. */
  enqueue(...steps: ScriptStep[]): void {
    this.#script.push(...steps);
  }

  /** Applies the next step; false when the script is empty. */
  step(): boolean {
    const next = this.#script.shift();
    if (!next) return false;
    this.apply(next);
    return true;
  }

  /** Applies every remaining step. */
  run(): void {
    while (this.step());
  }

  /** Applies one change now, outside the script, and fires the events the engine would. */
  apply(step: ScriptStep): void {
    const before = this.#tasks.get(step.task);
    if (!before) throw new Error(`No task ${step.task}`);
    const { task: _id, ...patch } = step;
    this.#patch(step.task, patch);
    const after = this.#tasks.get(step.task)!;
    let kind: string | undefined = 'progress';
    if (after.state !== before.state) {
      kind = { uploading: 'start', retrying: 'retry', done: 'success', failed: 'error' }[after.state as string];
    }
    this.#publish(true, kind, step.task);
  }

  /** For stories: applies a step every `intervalMs` until the script is empty or `stop()` is called. */
  autoplay(intervalMs = 400): void {
    this.stop();
    this.#timer = setInterval(() => {
      if (!this.step() && !this.#autoComplete) this.stop();
    }, intervalMs);
  }

  /** Stops `autoplay`. */
  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #insert(seed: SeedTask): string {
    const id = seed.id ?? `task-${this.#next++}`;
    const task: TaskSnapshot = {
      type: '',
      state: 'queued',
      bytesSent: 0,
      bytesAcknowledged: 0,
      speed: 0,
      ...seed,
      id,
    };
    this.#tasks.set(id, task);
    return id;
  }

  #patch(id: string, patch: Partial<TaskSnapshot>): void {
    const current = this.#tasks.get(id);
    if (!current) return;
    const next: TaskSnapshot = { ...current, ...patch };
    if (patch.state && patch.state !== 'retrying' && !patch.retry) delete next.retry;
    if (patch.state && patch.state !== 'failed' && !patch.error) delete next.error;
    if (patch.state === 'done' && next.total > 0) next.bytesSent = next.bytesAcknowledged = next.total;
    if (patch.state === 'done' || patch.state === 'failed' || patch.state === 'cancelled') {
      next.speed = 0;
      delete next.etaMs;
    }
    this.#tasks.set(id, next);
    this.#handles.get(id)?.settle(next);
  }

  #handle(id: string): ScriptedTask {
    let handle = this.#handles.get(id);
    if (!handle) {
      handle = new ScriptedTask(id, this, (method, patch) => {
        this.calls.push({ method, id });
        if (patch) this.#patch(id, patch);
        this.#publish(true);
      });
      this.#handles.set(id, handle);
    }
    return handle;
  }

  /** Rebuilds the snapshot and fires `change` (and a lifecycle event for `id`). */
  #publish(notify: boolean, kind?: string, id?: string): void {
    const tasks = [...this.#tasks.values()];
    let totalBytes = 0;
    let sentBytes = 0;
    for (const t of tasks) {
      totalBytes += t.total;
      sentBytes += t.bytesSent;
    }
    this.#snapshot = { tasks, online: true, totalBytes, sentBytes };
    if (!notify) return;
    if (kind && id) this.dispatchEvent(new CustomEvent(kind, { detail: this.#tasks.get(id) }));
    this.dispatchEvent(new CustomEvent('change', { detail: this.#snapshot }));
  }

  /** Internal: the current snapshot of one task. */
  snapshotOf(id: string): TaskSnapshot | undefined {
    return this.#tasks.get(id);
  }
}

/** The `UploadTask` handle of a scripted task. */
class ScriptedTask implements UploadTask {
  readonly id: string;
  readonly done: Promise<StoreFile>;
  #resolve!: (file: StoreFile) => void;
  #reject!: (error: Error) => void;
  readonly #owner: ScriptedUploader;
  readonly #control: (method: string, patch?: Partial<TaskSnapshot>) => void;

  constructor(id: string, owner: ScriptedUploader, control: (method: string, patch?: Partial<TaskSnapshot>) => void) {
    this.id = id;
    this.#owner = owner;
    this.#control = control;
    this.done = new Promise<StoreFile>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    // A story that never awaits `done` must not log an unhandled rejection when its task fails.
    this.done.catch(() => undefined);
  }

  get snapshot(): TaskSnapshot {
    return this.#owner.snapshotOf(this.id)!;
  }
  get state(): TaskState {
    return this.snapshot.state;
  }
  get bytesSent(): number {
    return this.snapshot.bytesSent;
  }
  get bytesAcknowledged(): number {
    return this.snapshot.bytesAcknowledged;
  }
  get total(): number {
    return this.snapshot.total;
  }

  pause(): void {
    this.#control('pause', ['uploading', 'queued', 'retrying'].includes(this.state) ? { state: 'paused', speed: 0 } : undefined);
  }
  resume(): void {
    this.#control('resume', this.state === 'paused' || this.state === 'interrupted' ? { state: 'queued' } : undefined);
  }
  cancel(): void {
    this.#control('cancel', ACTIVE.has(this.state) ? { state: 'cancelled', error: { code: 'cancelled', message: 'Cancelled' } } : undefined);
  }
  retry(): void {
    this.#control('retry', this.state === 'failed' || this.state === 'retrying' ? { state: 'queued', bytesSent: this.bytesAcknowledged } : undefined);
  }

  /** Internal: resolves or rejects `done` when the task reaches an end state. */
  settle(snapshot: TaskSnapshot): void {
    if (snapshot.state === 'done') this.#resolve(snapshot.file ?? { id: `file-${this.id}` });
    if (snapshot.state === 'failed' || snapshot.state === 'cancelled') this.#reject(new Error(snapshot.error?.message ?? snapshot.state));
  }
}
