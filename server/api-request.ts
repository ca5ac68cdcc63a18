/** The transport-independent request/response pair every endpoint handles (Node adapter and batch build them). */
import type { Readable } from 'node:stream';

/** A request body that can be read once, either buffered (capped) or streamed. */
export interface RequestBody {
  /** `Content-Length` when the transport knows it; `undefined` for chunked bodies. */
  readonly length: number | undefined;
  /**
   * Reads the whole body into memory. Rejects with a 413 {@link ApiError} when it exceeds `limit` bytes
   * (default 1 MiB), so JSON routes never hold an unbounded body.
   */
  bytes(limit?: number): Promise<Uint8Array>;
  /** Streams the body; rejects mid-way if the connection is cut. Media routes use this. */
  stream(): AsyncIterable<Uint8Array>;
}

/** One API call, however it arrived. */
export interface ApiRequest {
  /** Upper-case HTTP method. */
  readonly method: string;
  /** URL path without query, percent-encoded as received. */
  readonly path: string;
  readonly query: URLSearchParams;
  /** Header values by lower-case name (repeated headers joined with ", "). */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: RequestBody;
  /** `http://host:port` the client used, for absolute URLs such as a session `Location`. */
  readonly baseUrl: string;
  /** True when the call is an inner call of a batch (media routes reject it). */
  readonly inBatch?: boolean;
  /** Drops the underlying connection at once (admin cut faults); absent for batch inner calls. */
  readonly cutConnection?: () => void;
  /**
   * Ends the request's body at once with the answer of a request superseded on its resumable session (a readable
   * 503), after which the connection lingers and closes; absent for batch inner calls.
   */
  readonly supersede?: () => void;
  /**
   * When the transport received the request's head, as a rising number (a higher one arrived later); transport
   * only. A newer request for a resumable session supersedes an older one still on it.
   */
  readonly arrival?: number;
}

/** What a handler answers; the adapter adds CORS and gzip and writes it. */
export interface ApiResponse {
  status: number;
  /** Header values by name (any case; the adapter writes them as given). */
  headers: Record<string, string>;
  body?: string | Uint8Array | Readable;
}

/** A body built from bytes already in memory (used by batch parts and tests). */
export function bufferedBody(bytes: Uint8Array): RequestBody {
  let used = false;
  return {
    length: bytes.length,
    async bytes() {
      used = true;
      return bytes;
    },
    async *stream() {
      if (used) return;
      used = true;
      if (bytes.length > 0) yield bytes;
    },
  };
}
