/**
 * The content port: where the service keeps file content and the staged bytes of resumable sessions. One backend
 * each: the data folder's disk (`disk-content.ts`, the default) and an S3-compatible object store (`s3-content.ts`,
 * loaded only when `--content s3://…` is configured). Routes, uploads, conversion and the session door talk to this
 * port only; neither backend knows about the metadata database.
 *
 * Content is named by its content key, the object's path under the backend's root: `content/<name>` for what this
 * version writes (`<data>/content/` on disk, `[PREFIX/]content/` in the bucket). Content written before schema 5
 * kept its place under `blobs/`; its rows carry that key (`metadata/migrations.ts`), so both are read where they are.
 */
import type { Readable } from 'node:stream';

/** A byte range `[start, end]`, both inclusive. */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

/** Content written by {@link ContentStore.write}: its content key, size and MD5 (hex). */
export interface WrittenContent {
  readonly key: string;
  readonly size: number;
  readonly md5: string;
}

/** A local file holding an object's bytes, for a reader that needs a path; `release` removes a temporary copy. */
export interface LocalCopy {
  readonly path: string;
  release(): Promise<void>;
}

/** Finished content: immutable objects, named by the service (their content keys), referenced by file rows. */
export interface ContentStore {
  /** Streams `source` into a new object, hashing as it goes; on any error (cut body, `maxBytes`) nothing is kept. */
  write(source: AsyncIterable<Uint8Array>, maxBytes?: number): Promise<WrittenContent>;
  /** Writes bytes already in memory (converted native content). */
  writeBytes(bytes: Uint8Array): Promise<WrittenContent>;
  /** Opens an object (optionally a byte range) for streaming; rejects when it does not exist. */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** The object as a local file (a path reader such as export); the disk's own file, or a temporary copy. */
  localCopy(key: string): Promise<LocalCopy>;
  /** Deletes an object; a missing one is fine. */
  remove(key: string): Promise<void>;
  /**
   * Start-up clean-up: removes temporary files and objects no row references (`referenced`), left by a crash
   * between steps. Returns how many it removed.
   */
  collectGarbage(referenced: ReadonlySet<string>): Promise<number>;
  /** The staged bytes of resumable sessions. */
  readonly sessions: SessionContent;
  /** Closes clients and handles. */
  close(): Promise<void>;
}

/** What one request body added: its length, and the bytes past the last whole block (kept only if it is final). */
export interface Appended {
  readonly received: number;
  readonly tail: readonly Uint8Array[];
}

/** The bytes of a finished session, now a content object. */
export interface CompletedContent {
  readonly key: string;
  readonly md5: string;
}

/**
 * The staged bytes of resumable sessions. Outside a request a session holds whole 256 KiB blocks; everything a
 * 308 or 200 acknowledged is durable before the answer, on whichever node answers next (the S3 backend keeps its
 * staging state in the object store, never in one process's memory).
 */
export interface SessionContent {
  /** Bytes durably stored for an open session (a crash's half block cut off). */
  stored(id: string): Promise<number>;
  /**
   * Appends a request body at `first` (the stored size is `stored`): whole blocks are made durable, the bytes past
   * the last whole block are returned as `tail` (kept only if the request turns out to be the last).
   */
  append(id: string, stored: number, first: number, body: AsyncIterable<Uint8Array>): Promise<Appended>;
  /** Cuts the session back to `size` bytes (a refused request keeps nothing of its own). */
  keep(id: string, size: number): Promise<void>;
  /** Turns the session's `size` bytes (plus `tail`) into one content object; the session's staging is gone. */
  complete(id: string, size: number, tail?: readonly Uint8Array[]): Promise<CompletedContent>;
  /**
   * Takes a completed session's bytes (the content `key` its completion made) back (its file's commit failed on
   * storage); false when nothing is left.
   */
  reopen(id: string, key: string): Promise<boolean>;
  /** Deletes a session's staged bytes (cancelled, expired); a missing session is fine. */
  remove(id: string): Promise<void>;
  /**
   * Start-up recovery: drops staging of sessions not in `open`, and for a completion a crash cut between making
   * the object and committing its row, asks `committed(id, key)` whether a file took the object.
   */
  recover(open: readonly string[], committed: (id: string, key: string) => Promise<boolean>): Promise<void>;
}
