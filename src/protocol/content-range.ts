/**
 * `Content-Range` of resumable chunks and status queries (spec §4.4–4.5, supplement §1), the `Range` header of a
 * 308 answer, and the `Range` request header of downloads.
 */

/** A parsed `Content-Range` request header. */
export type ContentRange =
  /** `bytes F-L/T`, `bytes F-L/*` or `bytes F-* /T` (`last` undefined: the length comes from the body). */
  | {
      readonly kind: 'chunk';
      readonly first: number;
      readonly last: number | undefined;
      readonly total: number | undefined;
    }
  /** `bytes * /T` or `bytes * /*`: a status query. */
  | { readonly kind: 'status'; readonly total: number | undefined };

const CONTENT_RANGE = /^bytes +(?:(\d{1,16})-(\d{1,16}|\*)|(\*))\/(\d{1,16}|\*)$/i;

function toInt(text: string): number | undefined {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * Parses a `Content-Range` request header; `undefined` when malformed (the service then answers 400
 * "Failed to parse Content-Range header."). Checks syntax and `first ≤ last`; total consistency is the caller's.
 */
export function parseContentRange(value: string): ContentRange | undefined {
  const m = CONTENT_RANGE.exec(value.trim());
  if (!m) return undefined;
  const totalText = m[4];
  const total = totalText === '*' ? undefined : toInt(totalText);
  if (totalText !== '*' && total === undefined) return undefined;
  if (m[3] === '*') return { kind: 'status', total };
  const first = toInt(m[1]);
  if (first === undefined) return undefined;
  const lastText = m[2];
  if (lastText === '*') {
    // `bytes F-*/*` says nothing about where the stream ends and can never finish: treat as malformed.
    if (total === undefined) return undefined;
    return { kind: 'chunk', first, last: undefined, total };
  }
  const last = toInt(lastText);
  if (last === undefined || last < first) return undefined;
  return { kind: 'chunk', first, last, total };
}

/** `bytes F-L/T` (or `/*` when the total is not known yet). Requires `last ≥ first`. */
export function formatChunkRange(first: number, last: number, total?: number): string {
  return `bytes ${first}-${last}/${total === undefined ? '*' : total}`;
}

/** `bytes F-* /T` for a stream whose length the body tells (no space in the actual header). */
export function formatStreamRange(first: number, total: number): string {
  return `bytes ${first}-*/${total}`;
}

/** `bytes * /T` or `bytes * /*` (no space in the actual header): a status query. */
export function formatStatusQuery(total?: number): string {
  return `bytes */${total === undefined ? '*' : total}`;
}

/** The `Range` header of a 308 for `stored` bytes; `undefined` when nothing is stored (no header is sent). */
export function formatStoredRange(stored: number): string | undefined {
  return stored > 0 ? `bytes=0-${stored - 1}` : undefined;
}

/**
 * Reads the stored byte count from a 308's `Range` header (`bytes=0-N` → N+1); absent header → 0;
 * `undefined` if present but malformed or not starting at 0.
 */
export function parseStoredRange(value: string | null | undefined): number | undefined {
  if (value === null || value === undefined || value === '') return 0;
  const m = /^bytes=0-(\d{1,16})$/i.exec(value.trim());
  if (!m) return undefined;
  const last = toInt(m[1]);
  return last === undefined ? undefined : last + 1;
}

/** A satisfiable single byte range `[start, end]` (inclusive) of a download. */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

/**
 * Resolves a download `Range` request header against a size: a range, `'unsatisfiable'` (→ 416), or `undefined`
 * when the header should be ignored (malformed or several ranges → the whole content with 200).
 */
export function resolveByteRange(value: string, size: number): ByteRange | 'unsatisfiable' | undefined {
  const m = /^bytes=(\d{0,16})-(\d{0,16})$/i.exec(value.trim());
  if (!m) return undefined;
  const [startText, endText] = [m[1], m[2]];
  if (startText === '' && endText === '') return undefined;
  if (startText === '') {
    const suffix = Number(endText);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(startText);
  const end = endText === '' ? size - 1 : Math.min(Number(endText), size - 1);
  if (endText !== '' && Number(endText) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

/** `bytes S-E/T` of a 206 answer. */
export function formatContentRangeResponse(range: ByteRange, size: number): string {
  return `bytes ${range.start}-${range.end}/${size}`;
}

/** `bytes * /T` (no space) of a 416 answer. */
export function formatUnsatisfiedRange(size: number): string {
  return `bytes */${size}`;
}
