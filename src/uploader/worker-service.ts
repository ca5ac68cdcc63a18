import { createUploadClient } from '../client/upload-client.ts';
import { ManualOnline } from './adapters/navigator-online.ts';
import { UploadEngine } from './engine.ts';
import { sampleOf } from './file-sample.ts';
import { fingerprintOf } from './request-metadata.ts';
import type { AddFolderOptions, AddOptions, InterruptedUpload, StoreFile, TaskSnapshot, UploadErrorInfo, UploaderOptions } from './types.ts';
import { UploadError } from './upload-error.ts';
import type { JobEvent } from './upload-job.ts';
import { isDecodableImage } from './images/decodable.ts';
import { eventBatch, type EventBatch, type TaskEvent } from './event-batch.ts';
import type { ChannelPort, ClockPort, HasherPort, HttpPort, LockPort, SessionStore } from './ports.ts';

/** Files up to this size are kept in IndexedDB with their session unless the app says otherwise (`persist`). */
const DEFAULT_BLOB_QUOTA_BYTES = 64 * 1024 * 1024;

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
  private imageResize: WorkerUploaderOptions['imageResize'];
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
    this.imageResize = options.imageResize;
    const ports = await this.portsFor(options);
    const persist = options.persist ?? true;
    this.engine = new UploadEngine({
      ...ports,
      baseUrl: options.baseUrl,
      client: createUploadClient({ baseUrl: options.baseUrl, getAccessToken: () => getAccessToken() }),
      online: this.online,
      ...(options.concurrency !== undefined && { concurrency: options.concurrency }),
      ...(options.chunkSize !== undefined && { chunkSize: options.chunkSize }),
      ...(options.resumableThreshold !== undefined && { resumableThreshold: options.resumableThreshold }),
      ...(options.verify !== undefined && { verify: options.verify }),
      ...(options.stallTimeoutMs !== undefined && { stallTimeoutMs: options.stallTimeoutMs }),
      ...(options.maxRetries !== undefined && { maxRetries: options.maxRetries }),
      ...(options.backoff && { backoff: options.backoff }),
      ...(persist !== false && { blobQuotaBytes: (typeof persist === 'object' ? persist.blobQuotaBytes : undefined) ?? DEFAULT_BLOB_QUOTA_BYTES }),
      ...(options.parentId !== undefined && { parentId: options.parentId }),
      ...(options.flatten !== undefined && { flatten: options.flatten }),
      onEvent: this.batch?.push ?? onEvent,
    });
  }

  async add(taskId: string, file: Blob, info: FileInfo, options: AddOptions = {}, resumeId?: string): Promise<TaskSnapshot> {
    const engine = this.need();
    const bounds = this.imageResize;
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
    const source = this.engine?.source(taskId);
    return source && isDecodableImage(source.type) ? (await import('./images/image-jobs.ts')).thumbnailOf(source.blob, size) : undefined;
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
  async interruptedSource(
    id: string,
  ): Promise<{ blob?: Blob; handle?: FileSystemFileHandle; info: FileInfo; fingerprint: string; options: AddOptions; originalSize?: number } | undefined> {
    const record = await this.need().record(id);
    if (!record) return undefined;
    const options: AddOptions = {
      metadata: record.metadata,
      ...(record.convertTo && { convertTo: record.convertTo }),
      ...(record.updateFileId && { updateFileId: record.updateFileId }),
      ...(record.handle && { handle: record.handle }),
      ...(record.relativePath && { relativePath: record.relativePath }),
    };
    const lastModified = Number(JSON.parse(record.fingerprint)[2]);
    return {
      ...(record.blob && { blob: record.blob }),
      ...(record.handle && { handle: record.handle }),
      info: { name: record.name, type: record.type, lastModified },
      fingerprint: record.fingerprint,
      options,
      ...(record.originalSize !== undefined && { originalSize: record.originalSize }),
    };
  }

  /**
   * Why `file` cannot resume the interrupted upload `id`, or `undefined` when it can: `not-found` (no such upload),
   * `file-changed` (name, size, `lastModified`, type or the sampled slices differ from the file the upload began with).
   */
  async checkInterrupted(id: string, file: Blob, info: FileInfo): Promise<UploadErrorInfo | undefined> {
    const record = await this.need().record(id);
    if (!record) return { code: 'not-found', message: `no interrupted upload ${id}` };
    const same = fingerprintOf({ ...info, size: file.size }) === record.fingerprint && (record.sample === undefined || record.sample === (await sampleOf(file)));
    return same ? undefined : { code: 'file-changed', message: `${record.name} is not the file this upload started with: it changed since` };
  }

  /** Resumes a stored session with the file the user chose again (or the one found by `interruptedSource`). */
  async resumeInterrupted(taskId: string, id: string, file: Blob, info: FileInfo): Promise<TaskSnapshot> {
    const source = await this.interruptedSource(id);
    if (!source) throw new UploadError({ code: 'not-found', message: `no interrupted upload ${id}` });
    if (fingerprintOf({ ...info, size: file.size }) !== source.fingerprint) {
      throw new UploadError({ code: 'file-changed', message: `the file is not the one this upload started with (${source.info.name})` });
    }
    // A resized image resumes from the Blob kept with its session, kept again for the next page life.
    const resized = source.originalSize !== undefined && { originalSize: source.originalSize, keepBlob: true };
    return this.need().add(taskId, { blob: file, ...info, ...resized }, source.options, id);
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
