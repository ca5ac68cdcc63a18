/**
 * The staging state of a resumable session in the object store (`sessions/<id>/state.json`) and the keys around it;
 * `s3-session-content.ts` says how it is used.
 */
import { legacySessionKey } from './content-keys.ts';

/** Size of every multipart part but the last: above S3's 5 MiB minimum, a whole number of 256 KiB blocks. */
export const PART_SIZE = 8 * 1024 * 1024;

/**
 * How old things must be before a sweep removes them: staging untouched for `stagingTtlMs` (the session TTL) is an
 * expired session's; staging, uploads or completed objects no open session explains are left for `orphanGraceMs`
 * (another node may be working on them right now).
 */
export interface StagingTimes {
  readonly stagingTtlMs: number;
  readonly orphanGraceMs: number;
}

export interface Segment {
  readonly key: string;
  readonly start: number;
  readonly size: number;
}
export interface Part {
  readonly n: number;
  readonly etag: string;
}
export interface Snapshot {
  readonly stored: number;
  readonly partCount: number;
  readonly segments: readonly Segment[];
  readonly md5: string;
}
/** `sessions/<id>/state.json`. */
export interface Staging {
  readonly v: 1;
  /**
   * The content key the session's multipart upload and its completed object have (`content-keys.ts`). A state
   * without one was begun by the version before schema 5, whose uploads went to `blobs/u-<id>`: it keeps that key
   * to the end, as an upload in progress cannot move.
   */
  key?: string;
  stored: number;
  uploadId?: string;
  parts: Part[];
  segments: Segment[];
  /** hash-wasm MD5 state (base64) of the first `stored` bytes. */
  md5: string;
  before?: Snapshot;
}

export const stateKey = (id: string) => `sessions/${id}/state.json`;
/** The key a state's upload and completed object have. */
export const objectKey = (id: string, st: Staging) => st.key ?? legacySessionKey(id);
export const segmentBytes = (segments: readonly Segment[]) => segments.reduce((n, s) => n + s.size, 0);

export const asError = (e: unknown) => (e instanceof Error ? e : new Error(String(e)));

/** Keys a state needs (its segments and those of the request it can still take back). */
export function referencedKeys(st: Staging | undefined): Set<string> {
  return new Set([...(st?.segments ?? []), ...(st?.before?.segments ?? [])].map((s) => s.key));
}
