import { StoreError } from '../../client/store-error.ts';

/**
 * What a resumable upload knows of sending its file by its path. A PUT of the whole file sends the file itself:
 * Chromium uploads a chosen `File` by its path (the network service reads the file), but a slice of it, even of every
 * byte, through its blob store, at about twice the CPU. Chromium lets a process send a file by its path only if the
 * process was granted the file — the renderer of the page that chose it — and the site's shared worker may run in
 * another page's process; there the request fails before any byte leaves (`ERR_ACCESS_DENIED`, a network error to the
 * worker). So the file goes itself until such a refusal, and as a slice from then on; the refused attempt goes on at
 * once, with a status query (bench/README.md, "Why the engine sent a slice, and when it sends the file").
 */
export interface ByPath {
  /** Set once the file by its path was refused: every body is a slice from then on. */
  sliced: boolean;
  /**
   * Bytes the last body was seen to send. Never reset: once the file itself made progress, this process may read it,
   * and a grant lasts as long as the process that holds it.
   */
  sent: number;
}

/**
 * Whether `error` may be the refusal of a file sent by its path: `body` was the file itself, no byte of it went out
 * and no answer came (a network error). Every later body is then a slice.
 */
export function refusedByPath(state: ByPath, body: Blob, file: Blob, error: unknown): boolean {
  return body === file && !state.sent && error instanceof StoreError && !error.status && (state.sliced = true);
}
