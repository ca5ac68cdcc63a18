import type { UploadClient } from '../../client/index.ts';
import type { IdPool } from './id-pool.ts';
import type { BackoffOptions } from '../../protocol/backoff.ts';
import type {
  ChannelPort,
  ClockPort,
  HasherPort,
  HttpPort,
  LockPort,
  OnlinePort,
  SessionStore,
} from '../contract/ports.ts';
import type { AddOptions, TaskSnapshot } from '../contract/types.ts';
import type { FileInfo, JobEvent } from '../contract/worker-contract.ts';
import type { FolderOf } from './place-file.ts';

/** What every upload strategy needs from the engine, for one task. */
export interface UploadContext {
  baseUrl: string;
  client: UploadClient;
  http: HttpPort;
  ids: IdPool;
  store?: SessionStore;
  /** Cross-tab session locks (a resumable upload holds its session's lock while it sends). */
  locks: LockPort;
  /** Timestamps of session records (their expiry) come from here, so tests can move time. */
  clock: ClockPort;
  stallTimeoutMs: number;
  /** MD5 trackers for verification; absent when the uploader does not verify (then nothing is ever hashed). */
  hasher?: HasherPort;
  /** Bytes of the current request handed to the network; `start` is the request's first file offset. */
  onSent(start: number, sent: number): void;
  /** The service confirmed bytes [0, acknowledged); the bytes sent are what it kept (after a failure, less). */
  onAcknowledged(acknowledged: number): void;
}

/** What a job needs from the engine. */
export interface JobDeps extends Omit<UploadContext, 'onSent' | 'onAcknowledged'> {
  client: UploadClient;
  online: OnlinePort;
  clock: ClockPort;
  maxRetries: number;
  backoff?: BackoffOptions;
  resumableThreshold: number;
  chunkSize: number | 'adaptive' | undefined;
  /** Progress of sessions uploaded by other tabs, and ours for them. */
  channel?: ChannelPort;
  /** The folder of a relative path (files go into it). */
  folderOf: FolderOf;
  emit(event: JobEvent, snapshot: TaskSnapshot): void;
}

/**
 * A file as the engine takes it: its bytes (`file`, the `File` or `Blob` the page was given) plus the File fields it
 * reads (`FileInfo`; Node tests pass them explicitly). The bytes are `file` from the page to the request: here, in the
 * job's `UploadInput` and in the stored `SessionRecord.file` (ARCHITECTURE.md, "Names along the way").
 */
export interface EngineFile extends FileInfo {
  file: Blob;
  /** Set when `file` is a resized image of the chosen file: its size, shown beside the sent size. */
  originalSize?: number;
  /** Keep `file` with the session record whatever the quota (a resized image cannot be made again from a handle). */
  keepFile?: boolean;
}

/**
 * The file one job uploads and what the app asked for; `keepFile` is the engine's decision here (the app's, or a
 * small file under the quota).
 */
export interface UploadInput extends EngineFile {
  taskId: string;
  options: AddOptions;
}
