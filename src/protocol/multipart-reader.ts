/**
 * A push-style, streaming reader for any `multipart/*` body (RFC 2046), shared by the `multipart/related` upload
 * parser and the batch (`multipart/mixed`) codec.
 *
 * Why not `@mjackson/multipart-parser` (evaluated first, it is installed): it buffers each part whole before
 * yielding it (a 2 MiB default cap, so a media part of hundreds of MiB cannot stream), it requires the first
 * delimiter at byte 0 (no leading CRLF or preamble) and it only recognises CRLF line breaks (`\r\n\r\n` ends the
 * headers), while the supplement (§2) requires tolerating LF-only bodies. This state machine hands part bytes
 * on as they arrive and holds back at most the few bytes that could begin a delimiter.
 *
 * Tolerated: any preamble (so a leading CRLF), CRLF or bare LF line breaks, transport padding after a delimiter,
 * header continuation lines, no line break after the closing delimiter, any epilogue.
 *
 * Framing: the line break that ends the opening delimiter line decides what precedes every later delimiter. In a
 * CRLF-framed body a delimiter is `CRLF--boundary` (a bare `LF--boundary` is content); in an LF-framed body (as
 * Google's Python client writes) it is `LF--boundary`, and a CR before that LF is the content's last byte.
 */
import { MultipartError } from './multipart-error.ts';
import { concatBytes, latin1Decode, utf8Encode } from './multipart-text.ts';

/** What the reader found; events come in body order. */
export type MultipartEvent =
  /** A part begins; header names are lower-cased, repeated headers joined with `, `. */
  | { readonly type: 'part'; readonly headers: Readonly<Record<string, string>> }
  /** Some bytes of the current part's body (a view into a pushed chunk: do not reuse pushed buffers). */
  | { readonly type: 'data'; readonly bytes: Uint8Array }
  /** The current part's body is complete. */
  | { readonly type: 'partEnd' }
  /** The closing delimiter was read; everything after it is epilogue and ignored. */
  | { readonly type: 'end' };

/** Options of {@link MultipartReader}. */
export interface MultipartReaderOptions {
  /** Largest header block of one part, in bytes (default 16 KiB). */
  readonly maxHeaderBytes?: number;
}

type State = 'preamble' | 'afterDelimiter' | 'headers' | 'body' | 'epilogue';

const LF = 10;
const CR = 13;
const DASH = 45;
const SPACE = 32;
const TAB = 9;
const MAX_PADDING = 256;
const EMPTY = new Uint8Array(0);

/**
 * Incremental multipart reader: `push` each chunk as it arrives and act on the returned events, then call `end`.
 * Throws {@link MultipartError} as soon as the body is known to be malformed.
 */
export class MultipartReader {
  private readonly delimiter: Uint8Array;
  private readonly boundary: string;
  private readonly maxHeaderBytes: number;
  private state: State = 'preamble';
  private pending: Uint8Array = EMPTY;
  /** True while nothing of the current preamble/body has been consumed: a delimiter may start without a newline. */
  private atStart = true;
  private headerLines: string[] = [];
  private headerBytes = 0;
  private parts = 0;
  /** The body's line break, decided by the opening delimiter line. */
  private newline: 'crlf' | 'lf' | undefined;

  constructor(boundary: string, options: MultipartReaderOptions = {}) {
    this.boundary = boundary;
    this.delimiter = utf8Encode(`--${boundary}`);
    this.maxHeaderBytes = options.maxHeaderBytes ?? 16 * 1024;
  }

  /** Number of parts begun so far. */
  get partCount(): number {
    return this.parts;
  }

  /** Feeds the next chunk of the body and returns what it completed. */
  push(chunk: Uint8Array): MultipartEvent[] {
    const events: MultipartEvent[] = [];
    if (this.state === 'epilogue' || chunk.length === 0) return events;
    const buf = this.pending.length === 0 ? chunk : concatBytes([this.pending, chunk]);
    this.pending = EMPTY;
    let pos = 0;
    while (pos < buf.length) {
      const next = this.step(buf, pos, events);
      if (next === -1) break; // step stored what it could not decide yet in `pending`
      pos = next;
    }
    return events;
  }

  /**
   * Signals the end of the body.
   * @throws MultipartError when the opening or closing delimiter is missing.
   */
  end(): MultipartEvent[] {
    const quoted = `"--${this.boundary}"`;
    switch (this.state) {
      case 'epilogue':
        return [];
      case 'preamble':
        throw new MultipartError(
          'missingOpeningDelimiter',
          `The body does not contain the opening boundary delimiter ${quoted}.`,
        );
      case 'headers':
        throw new MultipartError(
          'missingClosingDelimiter',
          `Missing closing boundary delimiter "--${this.boundary}--": the body ended inside the headers of part ${this.parts}.`,
        );
      default:
        throw new MultipartError(
          'missingClosingDelimiter',
          `Missing closing boundary delimiter "--${this.boundary}--" after part ${this.parts}.`,
        );
    }
  }

  /** Handles one state transition starting at `pos`; returns the next position, or -1 when it needs more bytes. */
  private step(buf: Uint8Array, pos: number, events: MultipartEvent[]): number {
    switch (this.state) {
      case 'preamble':
      case 'body':
        return this.scanForDelimiter(buf, pos, events);
      case 'afterDelimiter':
        return this.readDelimiterTail(buf, pos, events);
      case 'headers':
        return this.readHeaderLine(buf, pos, events);
      default:
        return buf.length;
    }
  }

  private scanForDelimiter(buf: Uint8Array, pos: number, events: MultipartEvent[]): number {
    const emit = this.state === 'body';
    let candidate = -1; // where a delimiter (with its preceding line break) may start
    let matchAt = -1; // where "--boundary" starts
    if (this.atStart) {
      const m = this.matchDelimiter(buf, pos);
      if (m !== 'no') {
        candidate = pos;
        matchAt = m === 'yes' ? pos : -1;
      }
    }
    let search = pos;
    while (candidate === -1) {
      const lf = buf.indexOf(LF, search);
      if (lf === -1) break;
      const m = this.matchDelimiter(buf, lf + 1);
      const cr = lf > pos && buf[lf - 1] === CR;
      if (m !== 'no' && (cr || this.newline !== 'crlf')) {
        candidate = cr && this.newline !== 'lf' ? lf - 1 : lf;
        matchAt = m === 'yes' ? lf + 1 : -1;
        break;
      }
      search = lf + 1;
    }
    if (candidate === -1) {
      // Keep a trailing CR unless the body is LF-framed: it may be the start of the CRLF before the next delimiter.
      const keepFrom =
        this.newline !== 'lf' && buf.length > pos && buf[buf.length - 1] === CR ? buf.length - 1 : buf.length;
      if (emit && keepFrom > pos) events.push({ type: 'data', bytes: buf.subarray(pos, keepFrom) });
      if (keepFrom > pos) this.atStart = false;
      this.pending = buf.subarray(keepFrom);
      return -1;
    }
    if (emit && candidate > pos) events.push({ type: 'data', bytes: buf.subarray(pos, candidate) });
    if (matchAt === -1) {
      if (candidate > pos) this.atStart = false;
      this.pending = buf.subarray(candidate);
      return -1;
    }
    if (emit) events.push({ type: 'partEnd' });
    this.state = 'afterDelimiter';
    return matchAt + this.delimiter.length;
  }

  /** Whether `--boundary` starts at `at`: 'yes', 'no', or 'maybe' when the buffer ends inside a matching prefix. */
  private matchDelimiter(buf: Uint8Array, at: number): 'yes' | 'no' | 'maybe' {
    const d = this.delimiter;
    const n = Math.min(d.length, buf.length - at);
    for (let i = 0; i < n; i++) if (buf[at + i] !== d[i]) return 'no';
    return n === d.length ? 'yes' : 'maybe';
  }

  private readDelimiterTail(buf: Uint8Array, pos: number, events: MultipartEvent[]): number {
    if (buf[pos] === DASH) {
      if (pos + 1 >= buf.length) return this.wait(buf, pos);
      if (buf[pos + 1] === DASH) {
        this.state = 'epilogue';
        events.push({ type: 'end' });
        return buf.length;
      }
      this.malformedDelimiter();
    }
    let i = pos;
    while (i < buf.length && (buf[i] === SPACE || buf[i] === TAB)) i++;
    if (i - pos > MAX_PADDING) this.malformedDelimiter();
    if (i >= buf.length) return this.wait(buf, pos);
    const crlf = buf[i] === CR;
    if (crlf) {
      if (i + 1 >= buf.length) return this.wait(buf, pos);
      if (buf[i + 1] !== LF) this.malformedDelimiter();
      i++;
    }
    if (buf[i] !== LF) this.malformedDelimiter();
    this.newline ??= crlf ? 'crlf' : 'lf';
    this.state = 'headers';
    this.parts++;
    this.headerLines = [];
    this.headerBytes = 0;
    return i + 1;
  }

  private readHeaderLine(buf: Uint8Array, pos: number, events: MultipartEvent[]): number {
    const lf = buf.indexOf(LF, pos);
    const end = lf === -1 ? buf.length : lf;
    if (this.headerBytes + (end - pos) > this.maxHeaderBytes) {
      throw new MultipartError(
        'malformedPartHeaders',
        `The headers of part ${this.parts} exceed ${this.maxHeaderBytes} bytes.`,
      );
    }
    if (lf === -1) return this.wait(buf, pos);
    const lineEnd = lf > pos && buf[lf - 1] === CR ? lf - 1 : lf;
    this.headerBytes += lf + 1 - pos;
    if (lineEnd === pos) {
      events.push({ type: 'part', headers: this.parseHeaders() });
      this.state = 'body';
      this.atStart = true;
    } else {
      this.headerLines.push(latin1Decode(buf.subarray(pos, lineEnd)));
    }
    return lf + 1;
  }

  private parseHeaders(): Record<string, string> {
    const headers: Record<string, string> = {};
    let last: string | undefined;
    for (const line of this.headerLines) {
      if ((line[0] === ' ' || line[0] === '\t') && last !== undefined) {
        // Obsolete line folding: the line continues the previous header's value.
        headers[last] = `${headers[last]} ${line.trim()}`.trim();
        continue;
      }
      const colon = line.indexOf(':');
      const name = colon > 0 ? line.slice(0, colon).trim().toLowerCase() : '';
      if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(name)) {
        throw new MultipartError(
          'malformedPartHeaders',
          `Part ${this.parts} has a malformed header line "${line.slice(0, 100)}" (expected "Name: value").`,
        );
      }
      const value = line.slice(colon + 1).trim();
      // A bare CR or another control character would be echoed into a response header (batch Content-ID).
      // eslint-disable-next-line no-control-regex -- a header value must not hold control characters; finding them is the point.
      const control = /[\x00-\x08\x0a-\x1f\x7f]/.exec(value);
      if (control) {
        throw new MultipartError(
          'malformedPartHeaders',
          `The ${name} header of part ${this.parts} holds the control character 0x${control[0].charCodeAt(0).toString(16).padStart(2, '0')}, which header values may not contain.`,
        );
      }
      headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
      last = name;
    }
    return headers;
  }

  private wait(buf: Uint8Array, pos: number): -1 {
    this.pending = buf.subarray(pos);
    return -1;
  }

  private malformedDelimiter(): never {
    throw new MultipartError(
      'malformedDelimiter',
      `Unexpected characters after boundary delimiter "--${this.boundary}" (part ${this.parts + 1}): a delimiter line must end right after the boundary, or with "--" when it closes the body.`,
    );
  }
}
