import type { UploadClient } from '../../client/index.ts';
import type { IdPool } from './id-pool.ts';
import type { ClockPort, HasherPort, HttpPort, LockPort, SessionStore } from '../ports.ts';
import type { AddOptions } from '../types.ts';

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

/** The file being uploaded and what the app asked for. */
export interface UploadInput {
  taskId: string;
  file: Blob;
  name: string;
  type: string;
  lastModified: number;
  options: AddOptions;
  /** Keep the file itself in the session record (small files, under the app's quota) to resume without it. */
  keepBlob?: boolean;
  /** The chosen file's size when `file` is its resized image. */
  originalSize?: number;
}
