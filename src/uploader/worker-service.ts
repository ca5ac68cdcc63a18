import { createStoreClient } from '../client/index.ts';
import { ManualOnline } from './adapters/navigator-online.ts';
import { UploadEngine } from './engine.ts';
import { fingerprintOf } from './request-metadata.ts';
import type { AddOptions, InterruptedUpload, StoreFile, TaskSnapshot, UploadErrorInfo, UploaderOptions } from './types.ts';
import { UploadError } from './upload-error.ts';
import type { JobEvent } from './upload-job.ts';
import { eventBatch, type EventBatch, type TaskEvent } from './event-batch.ts';
import type { ChannelPort, ClockPort, HasherPort, HttpPort, LockPort, SessionStore } from './ports.ts';

/** The options that cross into the worker (functions and the Worker itself stay on the main thread). */
export type WorkerUploaderOptions = Omit<UploaderOptions, 'getAccessToken' | 'worker'> & {
  online?: boolean;
};

/** How a task ended, as plain data (an Error's class and code do not survive structured clone). */
export type TaskResult = ({ ok: true; file: StoreFile } | { ok: false; error: UploadErrorInfo }) & {
  /** The task's final snapshot: events travel on their own channel and may arrive after this answer. */
  snapshot?: TaskSnapshot;
};

/** The File fields the engine reads, sent beside the Blob (a Blob sent alone loses them). */
export interface FileInfo {
  name: string;
  type: string;
  lastModified: number;
}

/** The adapters the engine runs on, chosen by the composition root (`worker.ts`) once the options are known. */
export interface EnginePorts {
  http: HttpPort;
  store: SessionStore;
  clock: ClockPort;
  locks: LockPort;
  channel?: ChannelPort;
  /** Absent when the uploader does not verify. */
  hasher?: HasherPort;
}

/**
 * Everything the main thread asks of the worker. `worker.ts` exposes one instance with comlink; `Remote<UploadWorkerService>`
 * is the cross-thread protocol, so there are no hand-kept message types. Also usable in the page itself (tests, or
 * where workers are unavailable), with any HTTP port and session store.
 */
export class UploadWorkerService {
  private engine?: UploadEngine;
  private readonly online = new ManualOnline(true);
  private batch?: EventBatch;

  /** `portsFor` picks the adapters for the options `init` receives (`worker.ts` passes the browser's). */
  constructor(private readonly portsFor: (options: WorkerUploaderOptions) => EnginePorts | Promise<EnginePorts>) {}

  /**
   * Must be called first. `getAccessToken` and `onEvent` are comlink proxies to the main thread. With `onEvents`
   * (what `createUploader` passes) events arrive in batches through it instead, at most one call a frame, and
   * `onEvent` is not called: across threads each call is a message and its reply.
   */
  async init(
    options: WorkerUploaderOptions,
    getAccessToken: () => string | Promise<string>,
    onEvent: (event: JobEvent, snapshot: TaskSnapshot) => void,
    onEvents?: (events: TaskEvent[]) => void,
  ): Promise<void> {
    if (onEvents) this.batch = eventBatch(onEvents);
    this.online.set(options.online ?? true);
    const ports = await this.portsFor(options);
    const persist = options.persist ?? true;
    this.engine = new UploadEngine({
      ...ports,
      baseUrl: options.baseUrl,
      client: createStoreClient({ baseUrl: options.baseUrl, getAccessToken: () => getAccessToken() }),
      online: this.online,
      ...(options.concurrency !== undefined && { concurrency: options.concurrency }),
      ...(options.chunkSize !== undefined && { chunkSize: options.chunkSize }),
      ...(options.resumableThreshold !== undefined && { resumableThreshold: options.resumableThreshold }),
      ...(options.verify !== undefined && { verify: options.verify }),
      ...(options.stallTimeoutMs !== undefined && { stallTimeoutMs: options.stallTimeoutMs }),
      ...(options.maxRetries !== undefined && { maxRetries: options.maxRetries }),
      ...(options.backoff && { backoff: options.backoff }),
      ...(typeof persist === 'object' && persist.blobQuotaBytes !== undefined && { blobQuotaBytes: persist.blobQuotaBytes }),
      onEvent: this.batch?.push ?? onEvent,
    });
  }

  add(taskId: string, file: Blob, info: FileInfo, options: AddOptions = {}, resumeId?: string): Promise<TaskSnapshot> {
    return this.need().add(taskId, { blob: file, ...info }, options, resumeId);
  }

  /** Resolves when the task ends, never rejects: the result says how. */
  async result(taskId: string): Promise<TaskResult> {
    const engine = this.need();
    const result: TaskResult = await engine.done(taskId).then(
      (file) => ({ ok: true, file }),
      (error: unknown) => ({ ok: false, error: error instanceof UploadError ? error.toJSON() : { code: 'unknown' as const, message: String(error) } }),
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
  remove(taskId: string): void {
    this.need().remove(taskId);
  }
  setOnline(online: boolean): void {
    this.online.set(online);
  }
  interrupted(): Promise<InterruptedUpload[]> {
    return this.need().interrupted();
  }

  /**
   * What an interrupted upload needs to resume: the stored Blob or file handle (the main thread asks for the
   * handle's permission, which needs the page), the File fields and its options.
   */
  async interruptedSource(id: string): Promise<{ blob?: Blob; handle?: FileSystemFileHandle; info: FileInfo; fingerprint: string; options: AddOptions } | undefined> {
    const record = await this.need().record(id);
    if (!record) return undefined;
    const options: AddOptions = {
      metadata: record.metadata,
      ...(record.convertTo && { convertTo: record.convertTo }),
      ...(record.updateFileId && { updateFileId: record.updateFileId }),
      ...(record.handle && { handle: record.handle }),
    };
    const lastModified = Number(JSON.parse(record.fingerprint)[2]);
    return {
      ...(record.blob && { blob: record.blob }),
      ...(record.handle && { handle: record.handle }),
      info: { name: record.name, type: record.type, lastModified },
      fingerprint: record.fingerprint,
      options,
    };
  }

  /** Resumes a stored session with the file the user chose again (or the one found by `interruptedSource`). */
  async resumeInterrupted(taskId: string, id: string, file: Blob, info: FileInfo): Promise<TaskSnapshot> {
    const source = await this.interruptedSource(id);
    if (!source) throw new UploadError({ code: 'not-found', message: `no interrupted upload ${id}` });
    if (fingerprintOf({ ...info, size: file.size }) !== source.fingerprint) {
      throw new UploadError({ code: 'file-changed', message: `the file is not the one this upload started with (${source.info.name})` });
    }
    return this.need().add(taskId, { blob: file, ...info }, source.options, id);
  }

  discardInterrupted(id: string): Promise<void> {
    return this.need().discard(id);
  }

  /** Resolves once every upload has stopped and stored its record (the facade then ends the worker). */
  async destroy(): Promise<void> {
    await this.engine?.destroy();
  }

  private need(): UploadEngine {
    if (!this.engine) throw new Error('UploadWorkerService.init must be called first');
    return this.engine;
  }
}

function withSnapshot(engine: UploadEngine, taskId: string): { snapshot?: TaskSnapshot } {
  const snapshot = engine.snapshot(taskId);
  return snapshot ? { snapshot } : {};
}
