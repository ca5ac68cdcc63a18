import { StoreError } from '../../client/store-error.ts';
import { backoffDelay } from '../../protocol/backoff.ts';
import { FOLDER_MIME } from '../../protocol/native.ts';
import { lazyInThreadHasher } from './hashing/lazy-hasher.ts';
import { mayStart } from './concurrency-policy.ts';
import type { FolderTree } from './folder-tree.ts';
import { withTimeout } from '../contract/with-timeout.ts';
import { IdPool } from './id-pool.ts';
import type { SessionRecord } from '../contract/ports.ts';
import { sampleOf } from './file-sample.ts';
import { fingerprintOf } from './request-metadata.ts';
import { SESSION_LIFETIME_MS, SessionRecords } from './session-records.ts';
import type {
  AddFolderOptions,
  AddOptions,
  InterruptedUpload,
  StoreFile,
  TaskSnapshot,
  UploadErrorInfo,
} from '../contract/types.ts';
import { UploadError } from '../contract/upload-error.ts';
import { UploadJob } from './upload-job.ts';
import type { HeldCommand } from '../contract/worker-contract.ts';
import type { EngineConfig, EngineIo } from './engine-config.ts';
import type { EngineFile, JobDeps, UploadInput } from './upload-context.ts';
import { isFinal } from '../contract/task-state.ts';
import type { FolderOf } from './place-file.ts';
import type { UploaderSettings } from '../contract/settings.ts';

export type { EngineConfig, EngineIo } from './engine-config.ts';
export type { EngineFile } from './upload-context.ts';

/**
 * The upload engine: a queue of jobs run `concurrency` at a time, or as many as `mayStart` (`concurrency-policy.ts`)
 * lets run for the protocol the browser reports and the files' sizes (each session's chunks strictly in order inside
 * its job), connectivity handling, and the session records that outlive the page. It talks to the world only
 * through the ports in its config, so it runs the same in the browser worker and in Node.
 */
export class UploadEngine {
  private readonly jobs = new Map<string, UploadJob>();
  private readonly queue: UploadJob[] = [];
  /** The `run` of every job under way, and its job. */
  private readonly runs = new Map<Promise<void>, UploadJob>();
  /** The protocol the browser last reported for a request (`nextHopProtocol`): how many may run at once. */
  private protocol?: string;
  private readonly ids: IdPool;
  /** The folders of relative paths, loaded with the first file that has one. */
  private folders?: Promise<FolderTree>;
  private readonly folderOf: FolderOf = (path, target) => {
    const { store, locks, clock } = this.io;
    this.folders ??= import('./folder-tree.ts').then(
      ({ FolderTree }) =>
        new FolderTree({
          createFolder: (...a) => this.createFolder(...a),
          ids: this.ids,
          ...(store && { store }),
          locks,
          clock,
          lifetimeMs: SESSION_LIFETIME_MS,
        }),
    );
    return this.folders.then((tree) => tree.ensure(path, target));
  };
  private readonly unsubscribeOnline: () => void;
  /** What every job gets from the engine: the settings and ports it needs, one object for all. */
  private readonly deps: JobDeps;
  private readonly records: SessionRecords;
  /** The uploader's settings, checked and with every default applied once (`resolveSettings`): read as they are. */
  private readonly settings: UploaderSettings;
  private readonly io: EngineIo;

  constructor({ settings, io, onEvent }: EngineConfig) {
    this.settings = settings;
    this.io = io;
    this.ids = new IdPool(io.client);
    const hasher = settings.verify ? (io.hasher ?? lazyInThreadHasher()) : undefined;
    this.deps = {
      baseUrl: settings.baseUrl,
      client: io.client,
      http: io.http,
      ids: this.ids,
      ...(io.store && { store: io.store }),
      locks: io.locks,
      ...(io.channel && { channel: io.channel }),
      stallTimeoutMs: settings.stallTimeoutMs,
      ...(hasher && { hasher }),
      online: io.online,
      clock: io.clock,
      maxRetries: settings.maxRetries,
      ...(settings.backoff && { backoff: settings.backoff }),
      resumableThreshold: settings.resumableThreshold,
      chunkSize: settings.chunkSize,
      folderOf: this.folderOf,
      emit: onEvent,
    };
    this.records = new SessionRecords(io, (record) => this.busy(record));
    this.unsubscribeOnline = io.online.subscribe((online) => {
      // Offline: stop requests now instead of letting them fail into the retry budget.
      if (!online) for (const job of this.jobs.values()) job.interrupt('offline');
    });
  }

  /** Asks for the first file IDs before the first file (`IdPool.prefetch`). */
  prefetchIds(): void {
    this.ids.prefetch();
  }

  /**
   * Queues a file under `taskId`. A stored session with the same fingerprint is resumed (status query first)
   * instead of starting over; `resumeId` names the record to resume explicitly. A file whose sampled slices differ
   * from the record's is not the one the session began with: an explicit resume fails with `file-changed`, an
   * implicit one starts a new session (the old one stays listed as interrupted). `held`: the command the page gave the
   * task before it got here (`HeldCommand`), asked for as the task is made, so one given while this add awaited counts.
   */
  async add(
    taskId: string,
    added: EngineFile,
    given: AddOptions = {},
    resumeId?: string,
    held?: () => Promise<HeldCommand | undefined> | HeldCommand | undefined,
  ): Promise<TaskSnapshot> {
    const options = this.withDefaults(given);
    // The record keeps its key: another tab may be uploading it under that key right now.
    let record: SessionRecord | undefined;
    if (resumeId !== undefined) {
      // Bounded: a database or a file that stopped answering fails the task where the user sees it, never leaves it queued.
      record = await this.within(this.record(resumeId), 'the stored session');
      if (!record || this.busy(record))
        throw new UploadError({ code: 'not-found', message: `no interrupted upload ${resumeId}` });
      const problem = await this.resumeProblem(record, added);
      if (problem) throw new UploadError(problem);
    } else {
      record = await this.records.find(fingerprintOf({ ...added, size: added.file.size }));
      if (record && (await this.resumeProblem(record, added))) record = undefined;
    }
    const quota = this.settings.blobQuotaBytes;
    const job: UploadJob = new UploadJob(
      {
        ...this.deps,
        // The job's own view of the HTTP port: the protocol each answer came over (or, where the browser did not say,
        // the last one heard) goes on its snapshot and decides how many may run.
        http: {
          send: (request, hooks) =>
            this.deps.http.send(request, hooks).then((response) => {
              const protocol = response.protocol || this.protocol;
              if (protocol) {
                job.snapshot.protocol = this.protocol = protocol;
                this.pump();
              }
              return response;
            }),
        },
      },
      {
        taskId,
        file: added.file,
        name: added.name,
        type: added.type,
        lastModified: added.lastModified,
        options: record?.convertTo ? { ...options, convertTo: record.convertTo } : options,
        keepFile: added.keepFile || (quota > 0 && added.file.size <= quota && !options.handle),
        ...(added.originalSize !== undefined && { originalSize: added.originalSize }),
      },
      record,
    );
    this.jobs.set(taskId, job);
    // Applied before the job may start: a task paused or cancelled on its way here never sends a request. (Listed
    // meanwhile: a sign-out may cancel it, or a pause-all pause it, while its page's turn ends.)
    const command = await held?.();
    if (command === 'cancel') await job.cancel();
    else if (command === 'pause') job.pause();
    else if (job.snapshot.state === 'queued') this.enqueue(job);
    return { ...job.snapshot };
  }

  /**
   * Creates the folders of `path` under the target (see `Uploader.addFolder`); undefined when flattening. Nothing
   * else retries these creates (no task carries them), so a 5xx, rate limit or lost connection is tried again here.
   */
  async addFolder(path: string, given: AddFolderOptions = {}): Promise<string | undefined> {
    const options = this.withDefaults(given);
    if (options.flatten) return undefined;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.folderOf(path, options.parentId);
      } catch (error) {
        if (
          !(error instanceof StoreError && (error.retryable || error.status === 0)) ||
          attempt >= this.deps.maxRetries
        )
          throw error;
        await this.io.clock.sleep(backoffDelay(attempt, this.settings.backoff), new AbortController().signal);
      }
    }
  }

  /** A copy of the task's current snapshot. */
  snapshot(taskId: string): TaskSnapshot | undefined {
    const job = this.jobs.get(taskId);
    return job && { ...job.snapshot };
  }

  /** A copy of every task's current snapshot, in the order they were added (what a page attaching is shown). */
  snapshots(): TaskSnapshot[] {
    return [...this.jobs.values()].map((job) => ({ ...job.snapshot }));
  }

  /** The file a task uploads, with its type (for its thumbnail). */
  fileOf(taskId: string): Readonly<UploadInput> | undefined {
    return this.jobs.get(taskId)?.input;
  }

  /** The task's final file, or its `UploadError`. */
  done(taskId: string): Promise<StoreFile> {
    return this.job(taskId).done;
  }

  pause(taskId: string): void {
    const job = this.job(taskId);
    const queued = this.queue.indexOf(job);
    if (queued >= 0) this.queue.splice(queued, 1);
    job.pause();
  }

  /** Continues a paused task, or tries a failed one again. */
  resume(taskId: string): void {
    const job = this.job(taskId);
    if (!job.running && job.rearm()) this.enqueue(job);
  }

  async cancel(taskId: string): Promise<void> {
    const job = this.job(taskId);
    const queued = this.queue.indexOf(job);
    if (queued >= 0) this.queue.splice(queued, 1);
    await job.cancel();
  }

  pauseAll(): void {
    for (const id of this.jobs.keys()) this.pause(id);
  }

  resumeAll(): void {
    for (const [id, job] of this.jobs) if (job.snapshot.state === 'paused') this.resume(id);
  }

  /**
   * Drops a finished task from memory. A failed task's resumable session goes too (record and service session):
   * the user dismissed it, so it must not come back as an interrupted upload in the next page life.
   */
  remove(taskId: string): void {
    const job = this.jobs.get(taskId);
    if (!job || !isFinal(job.snapshot.state)) return;
    this.jobs.delete(taskId);
    if (job.snapshot.state === 'failed') void job.discard().catch(() => undefined);
  }

  /** Sessions stored by an earlier page life that no task of this one is using and no other tab is uploading. */
  interrupted(): Promise<InterruptedUpload[]> {
    return this.records.interrupted((record) => [...this.jobs.values()].some((job) => job.recordId === record.id));
  }

  /**
   * Why `added` cannot resume the session of `record`, or `undefined` when it can: `file-changed` when its name, size,
   * `lastModified`, type or sampled slices differ from those of the file the upload began with.
   */
  async resumeProblem(record: SessionRecord, added: EngineFile): Promise<UploadErrorInfo | undefined> {
    const same =
      fingerprintOf({ ...added, size: added.file.size }) === record.fingerprint &&
      (record.sample === undefined ||
        record.sample === (await this.within(sampleOf(added.file), `reading ${added.name}`)));
    return same
      ? undefined
      : { code: 'file-changed', message: `${record.name} is not the file this upload started with: it changed since` };
  }

  /** The stored record, for resuming without the user choosing the file again. */
  record(id: string): Promise<SessionRecord | undefined> {
    return this.records.get(id);
  }

  /** Forgets an interrupted upload and cancels its session with the service (`SessionRecords.discard`). */
  discard(id: string): Promise<void> {
    return this.records.discard(id, this.deps.stallTimeoutMs);
  }

  /**
   * Stops every request; stored sessions stay for the next page life. Resolves once every running job has stopped
   * and written its record, so the records show the latest acknowledged offsets.
   */
  async destroy(): Promise<void> {
    this.unsubscribeOnline();
    this.io.channel?.close();
    this.queue.length = 0;
    for (const job of this.jobs.values()) job.interrupt('destroy');
    await Promise.all(this.runs.keys());
  }

  /** Creates a folder with a pre-generated ID; a 409 for that ID means an earlier try made it (spec §4.6). */
  private async createFolder(id: string, name: string, parentId: string | undefined): Promise<void> {
    try {
      await this.io.client.files.create(
        { id, name, mimeType: FOLDER_MIME, ...(parentId !== undefined && { parents: [parentId] }) },
        { fields: 'id' },
      );
    } catch (error) {
      if (!(error instanceof StoreError && error.status === 409 && error.reason === 'fileIdInUse')) throw error;
    }
  }

  /** `work`, or an `UploadError` once the stall timeout passes without an answer (what the task then shows). */
  private within<T>(work: Promise<T>, what: string): Promise<T> {
    const ms = this.deps.stallTimeoutMs;
    return withTimeout(
      work,
      ms,
      () => new UploadError({ code: 'unknown', message: `${what} did not answer within ${ms} ms` }),
      this.io.clock,
    );
  }

  /** The uploader's `parentId` and `flatten` under what the call gave. */
  private withDefaults<T extends AddFolderOptions>(options: T): T {
    const { parentId, flatten } = this.settings;
    return { ...(parentId !== undefined && { parentId }), ...(flatten && { flatten }), ...options };
  }

  private job(taskId: string): UploadJob {
    const job = this.jobs.get(taskId);
    if (!job) throw new UploadError({ code: 'not-found', message: `no upload task ${taskId}` });
    return job;
  }

  private enqueue(job: UploadJob): void {
    this.queue.push(job);
    this.pump();
  }

  private pump(): void {
    const size = (job: UploadJob) => job.snapshot.total;
    while (
      this.queue[0] &&
      mayStart(size(this.queue[0]), [...this.runs.values()].map(size), this.protocol, this.settings.concurrency)
    ) {
      const job = this.queue.shift()!;
      const run = job.run().finally(() => {
        this.runs.delete(run);
        this.pump();
      });
      this.runs.set(run, job);
    }
  }

  /** True when a task of this engine that has not ended uploads this record. */
  private busy(record: SessionRecord): boolean {
    for (const job of this.jobs.values()) if (job.recordId === record.id && !isFinal(job.snapshot.state)) return true;
    return false;
  }
}
