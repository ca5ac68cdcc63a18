import type { StoreFile } from './types.ts';

/**
 * The ports the upload engine talks through. The engine is a state machine that never touches `window`, `XMLHttpRequest`,
 * `fetch`, IndexedDB or `node:` modules itself; each environment plugs in one small adapter per port, so the same engine
 * runs inside the browser worker and in Node tests against the real reference service.
 */

/** Request body the HTTP port must be able to send: Blobs are sent without being read into memory. */
export type HttpBody = string | Uint8Array | Blob;

/** One HTTP request of the upload protocol. */
export interface HttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** Pieces sent one after another (a multipart body is text + Blob + text). */
  body?: readonly HttpBody[];
}

/** What the engine reads of a response. */
export interface HttpResponse {
  status: number;
  /** Lower-case header names. */
  header(name: string): string | null;
  text: string;
  /** The protocol the request went over (`nextHopProtocol`: `'h2'`, `'http/1.1'`), where the environment tells. */
  protocol?: string | undefined;
}

/** Hooks for one request. */
export interface HttpHooks {
  signal: AbortSignal;
  /** Body bytes handed to the network so far (upload progress). */
  onProgress?: (sent: number) => void;
}

/**
 * Sends one request. Resolves with any HTTP response (including 4xx/5xx); rejects only when no response arrived
 * (network error, connection cut, abort). Rejections caused by `signal` carry the signal's reason.
 */
export interface HttpPort {
  send(request: HttpRequest, hooks: HttpHooks): Promise<HttpResponse>;
}

/** A file the engine can slice lazily: a `File`/`Blob` in the browser, `fs.openAsBlob` in Node. */
export interface ByteSource {
  readonly size: number;
  readonly type: string;
  /** Bytes [start, end) without reading them; the HTTP port and the hasher read the slice when they need it. */
  slice(start: number, end: number): Blob;
}

/** A persisted resumable session (one record per upload). Plain data: it is stored with structured clone. */
export interface SessionRecord {
  /** Task id; also the record key. */
  id: string;
  sessionUri: string;
  /** name + size + lastModified + type of the file; adding a file with the same one resumes this session. */
  fingerprint: string;
  /** `sampleOf` the file at the start: a resume needs the same, so a file changed in place is not resumed. */
  sample?: string;
  name: string;
  type: string;
  total: number;
  /** The chosen file's size when an `imageResize` image is uploaded in its place (the record then keeps `file`). */
  originalSize?: number;
  metadata: Record<string, unknown>;
  /** Query string of the start request that shapes the final response (e.g. `fields`). */
  query?: Record<string, string>;
  convertTo?: string;
  updateFileId?: string;
  /** Path inside a dropped folder, shown again when the upload resumes in a later page life. */
  relativePath?: string;
  /** Bytes the service confirmed (first byte not yet stored). */
  acknowledged: number;
  /** MD5 state covering bytes [0, hashedTo) (records older than the named states hold a bare hash-wasm state). */
  hashState?: SavedHash | Uint8Array;
  hashedTo: number;
  createdAt: number;
  updatedAt: number;
  /** Browser file handle (Chromium drops and pickers) or a small file's copy, to resume without asking. */
  handle?: FileSystemFileHandle;
  file?: Blob;
  /**
   * The account the upload belongs to (`worker/principals.ts`); only its pages list or resume it. Records written
   * before accounts were kept have none and are shown to no one (they go when their session expires).
   */
  principal?: string;
}

/**
 * A folder the uploader creates for a relative path, remembered so that every upload into that path, in this page
 * life or a later one, reuses one pre-generated ID (a repeated create answers 409 instead of making a twin).
 */
export interface FolderRecord {
  /** The target folder and the path under it (`JSON.stringify([target, 'photos/2026'])`). */
  key: string;
  /** The pre-generated ID the folder is created with. */
  id: string;
  updatedAt: number;
}

/** Where resumable sessions (and the folders uploads go into) live between page lives. */
export interface SessionStore {
  get(id: string): Promise<SessionRecord | undefined>;
  put(record: SessionRecord): Promise<void>;
  delete(id: string): Promise<void>;
  list(): Promise<SessionRecord[]>;
  /** A remembered folder; a store without it remembers folders only for the page life. */
  getFolder?(key: string): Promise<FolderRecord | undefined>;
  putFolder?(record: FolderRecord): Promise<void>;
  /** Drops the remembered folders last used before `before` (ms since the epoch), in one transaction. */
  pruneFolders?(before: number): Promise<void>;
}

/** Connectivity as the environment reports it (`navigator.onLine` and its events). */
export interface OnlinePort {
  isOnline(): boolean;
  /** Calls `listener` on every change; returns an unsubscribe function. */
  subscribe(listener: (online: boolean) => void): () => void;
}

/** Time, so tests and the worker share one notion of "now" and of waiting. */
export interface ClockPort {
  now(): number;
  /** Resolves after `ms`, or rejects with the signal's reason when it aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

/** The prefix of every lock the kit takes, so its names never clash with the app's own locks. */
const LOCK_PREFIX = 'store-upload-kit:session:';

/** The lock name of one resumable session: its URI, which is the same in every tab. */
export function sessionLockKey(sessionUri: string): string {
  return LOCK_PREFIX + sessionUri;
}

/** Gives a held lock back. Calling it twice is harmless. */
export type ReleaseLock = () => void;

/**
 * Exclusive locks shared by every tab and worker of the origin (Web Locks in the browser), so two tabs never upload
 * the same session at once. A tab that closes or crashes loses its locks, which lets another tab take over.
 */
export interface LockPort {
  /** Takes the lock when nobody holds it; `undefined` when someone does (`ifAvailable`). */
  tryAcquire(key: string): Promise<ReleaseLock | undefined>;
  /** Waits until the lock is free and takes it; rejects with the signal's reason when `signal` aborts first. */
  acquire(key: string, signal: AbortSignal): Promise<ReleaseLock>;
  /** Names of the locks held right now, by anyone in the origin. */
  held(): Promise<Set<string>>;
}

/** What the tab uploading a session tells the other tabs about it. */
export type SessionMessage =
  | { type: 'progress'; sessionUri: string; bytesSent: number; bytesAcknowledged: number; total: number }
  | { type: 'done'; sessionUri: string; file: StoreFile }
  | { type: 'cancelled'; sessionUri: string };

/** A message bus between the tabs of the origin (BroadcastChannel in the browser): the sender never hears itself. */
export interface ChannelPort {
  post(message: SessionMessage): void;
  /** Calls `listener` for every message from another tab; returns an unsubscribe function. */
  subscribe(listener: (message: SessionMessage) => void): () => void;
  close(): void;
}

/**
 * The running MD5 of one upload. Calls are queued in order; the tracker may live in another thread (the hash
 * worker), so every answer is a promise and the file is passed by reference (a Blob), never as bytes.
 */
export interface HashTracker {
  /**
   * Hashes `file` forward through `end`, after the calls queued before it; nothing when the hash is already there.
   * It never moves back: only `stateAt` does, for a state below the hash.
   */
  hashTo(file: Blob, end: number): Promise<void>;
  /** The state covering [0, offset), to store with an acknowledged offset; no rewind goes below it afterwards. */
  stateAt(file: Blob, offset: number): Promise<SavedHash>;
  /** Hex digest of [0, offset). */
  digest(file: Blob, offset: number): Promise<string>;
  /** Stops the hashing queued so far (the request it shadowed failed). */
  abort(): void;
  /** Frees the tracker. */
  close(): void;
}

/** Opens MD5 trackers, in this thread or another; absent when the uploader does not verify. */
export interface HasherPort {
  /**
   * A tracker at `offset` from a saved state, or at 0 (a state it cannot load is dropped: the file is re-hashed).
   * Each of its reads of the file that takes over `readLimitMs` is given up and made again.
   */
  open(saved: SavedHash | undefined, offset: number, readLimitMs?: number): Promise<HashTracker>;
}

/**
 * A saved MD5 state, as a session record keeps it. The implementation is named: a state of one cannot be loaded into
 * the other.
 */
export type SavedHash = { impl: 'wasm'; state: Uint8Array } | { impl: 'js'; state: JsMd5State };

/** ts-md5's state (plain data, structured-clone safe). */
export interface JsMd5State {
  buffer: string;
  buflen: number;
  length: number;
  state: number[];
}
