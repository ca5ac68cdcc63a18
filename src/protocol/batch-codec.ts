/**
 * Batch bodies (`multipart/mixed`, spec §4.11, supplement §6): requests are encoded by the client and parsed by the
 * service; responses are encoded by the service and parsed by the client. Each part is `application/http` holding
 * one complete HTTP message; `Content-ID` ties a response to its request (`<x>` → `<response-x>`).
 */
import { MultipartError } from './multipart-error.ts';
import { MultipartReader, type MultipartEvent } from './multipart-reader.ts';
import { parseContentType } from './multipart-content-type.ts';
import { formatHttpMessage, isMethodToken, parseHttpMessage } from './multipart-http-message.ts';
import { reasonPhrase } from './multipart-reason-phrases.ts';
import { concatBytes, utf8Encode } from './multipart-text.ts';
import { newBoundary } from './multipart.ts';

export { reasonPhrase, REASON_PHRASES } from './multipart-reason-phrases.ts';

/** The most inner calls a batch may hold (spec §8); the service answers the rest with 403. */
export const BATCH_MAX_CALLS = 100;
/** The longest inner request URL the service accepts (spec §8). */
export const BATCH_MAX_URL_LENGTH = 8000;
/** The content type of every batch part. */
export const BATCH_PART_CONTENT_TYPE = 'application/http';

/** One inner request, as the client writes it. */
export interface BatchRequestInit {
  /** HTTP method, e.g. `POST`. */
  readonly method: string;
  /** Path with query, e.g. `/store/v3/files/abc/permissions?fields=id` (never a full URL). */
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Request body; `Content-Length` is added for it. */
  readonly body?: string | Uint8Array;
  /** Identifier to match the response; written as `Content-ID: <contentId>`. */
  readonly contentId?: string;
}

/** One inner request, as the service reads it. */
export interface ParsedBatchRequest {
  readonly method: string;
  /** The request target exactly as sent (path with query, or whatever the client wrote). */
  readonly target: string;
  /** `HTTP/1.1` when the request line had a version. */
  readonly httpVersion: string | undefined;
  /** Inner headers, lower-cased names. */
  readonly headers: Record<string, string>;
  readonly body: Uint8Array;
  /** The part's `Content-ID` header value as sent (angle brackets kept), if any. */
  readonly contentId: string | undefined;
}

/** One inner response, as the service writes it. */
export interface BatchResponseInit {
  readonly status: number;
  /** Reason phrase; the standard one for `status` by default. */
  readonly statusText?: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
  /** The request part's `Content-ID` value as received; answered as `response-<id>` inside the same brackets. */
  readonly contentId?: string | undefined;
}

/** One inner response, as the client reads it. */
export interface ParsedBatchResponse {
  readonly status: number;
  readonly statusText: string;
  /** Lower-cased names. */
  readonly headers: Record<string, string>;
  readonly body: Uint8Array;
  /** The part's `Content-ID` as sent, e.g. `<response-item1>`. */
  readonly contentId: string | undefined;
  /** The id the request was sent with: brackets and the `response-` prefix removed, e.g. `item1`. */
  readonly requestContentId: string | undefined;
}

/** An encoded batch body with its `Content-Type`. */
export interface EncodedBatch {
  /** `multipart/mixed; boundary=<boundary>` */
  readonly contentType: string;
  readonly boundary: string;
  readonly body: Uint8Array;
}

/** Encodes inner requests into a batch request body (client side). Boundary defaults to a fresh `batch_…`. */
export function encodeBatchRequest(
  requests: readonly BatchRequestInit[],
  boundary = newBoundary('batch_'),
): EncodedBatch {
  const parts = requests.map((r) => {
    if (!isMethodToken(r.method)) throw new TypeError(`invalid method "${r.method}"`);
    if (!r.path || /[\s]/.test(r.path)) throw new TypeError(`invalid path "${r.path}"`);
    const body = toBytes(r.body);
    const headers: Record<string, string> = { ...r.headers };
    if (r.body !== undefined && !hasHeader(headers, 'content-length')) headers['Content-Length'] = String(body.length);
    const partHeaders: Record<string, string> = { 'Content-Type': BATCH_PART_CONTENT_TYPE };
    if (r.contentId !== undefined) partHeaders['Content-ID'] = bracketed(r.contentId);
    return { partHeaders, message: formatHttpMessage(`${r.method} ${r.path} HTTP/1.1`, headers, body) };
  });
  return encodeMultipartMixed(parts, boundary);
}

/**
 * Parses a batch request body into inner requests in order (service side; the body is capped, so whole).
 * @throws MultipartError for a broken envelope, no parts, a part that is not `application/http`, or a part whose
 *   request line is not `VERB target [HTTP/x.y]` — all an outer 400.
 */
export function parseBatchRequest(body: Uint8Array, boundary: string): ParsedBatchRequest[] {
  return readParts(body, boundary).map(({ headers, content }, i) => {
    const msg = parseHttpMessage(content, i + 1);
    const words = msg.startLine.trim().split(/\s+/);
    const [method = '', target = '', version] = words;
    if (
      words.length < 2 ||
      words.length > 3 ||
      !isMethodToken(method) ||
      (version !== undefined && !/^HTTP\/\d\.\d$/.test(version))
    ) {
      throw new MultipartError(
        'malformedHttpMessage',
        `Batch part ${i + 1} has an invalid request line "${msg.startLine.slice(0, 200)}"; expected "VERB path?query [HTTP/1.1]".`,
      );
    }
    return {
      method: method.toUpperCase(),
      target,
      httpVersion: version,
      headers: msg.headers,
      body: msg.body,
      contentId: headers['content-id'],
    };
  });
}

/** Encodes inner responses, in request order, into a batch response body (service side). */
export function encodeBatchResponse(
  responses: readonly BatchResponseInit[],
  boundary = newBoundary('batch_'),
): EncodedBatch {
  const parts = responses.map((r) => {
    const body = toBytes(r.body);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(r.headers)) {
      // The body is written whole, so its framing headers are ours to set.
      const lower = name.toLowerCase();
      if (lower !== 'content-length' && lower !== 'transfer-encoding') headers[name] = value;
    }
    headers['Content-Length'] = String(body.length);
    const partHeaders: Record<string, string> = { 'Content-Type': BATCH_PART_CONTENT_TYPE };
    if (r.contentId !== undefined) partHeaders['Content-ID'] = responseContentId(r.contentId);
    const statusLine = `HTTP/1.1 ${r.status} ${r.statusText ?? reasonPhrase(r.status)}`;
    return { partHeaders, message: formatHttpMessage(statusLine, headers, body) };
  });
  return encodeMultipartMixed(parts, boundary);
}

/**
 * Parses a batch response body into inner responses in order (client side).
 * @throws MultipartError for a broken envelope or a part whose status line is not `HTTP/x.y <code> [reason]`.
 */
export function parseBatchResponse(body: Uint8Array, boundary: string): ParsedBatchResponse[] {
  return readParts(body, boundary).map(({ headers, content }, i) => {
    const msg = parseHttpMessage(content, i + 1);
    const m = /^HTTP\/\d\.\d\s+(\d{3})(?:\s+(.*))?$/.exec(msg.startLine.trim());
    if (!m) {
      throw new MultipartError(
        'malformedHttpMessage',
        `Batch part ${i + 1} has an invalid status line "${msg.startLine.slice(0, 200)}"; expected "HTTP/1.1 <code> <reason>".`,
      );
    }
    const contentId = headers['content-id'];
    return {
      status: Number(m[1]),
      statusText: m[2] ?? '',
      headers: msg.headers,
      body: msg.body,
      contentId,
      requestContentId: contentId === undefined ? undefined : stripResponsePrefix(contentId),
    };
  });
}

/** Indexes parsed responses by the id their requests were sent with (`requestContentId`). */
export function batchResponsesById(responses: readonly ParsedBatchResponse[]): Map<string, ParsedBatchResponse> {
  const map = new Map<string, ParsedBatchResponse>();
  for (const r of responses) if (r.requestContentId !== undefined) map.set(r.requestContentId, r);
  return map;
}

/** `<x>` → `<response-x>`, `x` → `response-x` (supplement §6: the brackets are kept when the request had them). */
export function responseContentId(requestContentId: string): string {
  const m = /^<(.*)>$/.exec(requestContentId.trim());
  return m ? `<response-${m[1]}>` : `response-${requestContentId.trim()}`;
}

function stripResponsePrefix(contentId: string): string {
  const inner = contentId.trim().replace(/^<(.*)>$/, '$1');
  return inner.startsWith('response-') ? inner.slice('response-'.length) : inner;
}

function bracketed(id: string): string {
  if (/[\r\n]/.test(id)) throw new TypeError('contentId must not contain line breaks');
  return /^<.*>$/.test(id) ? id : `<${id}>`;
}

function hasHeader(headers: Readonly<Record<string, string>>, lowerName: string): boolean {
  return Object.keys(headers).some((k) => k.toLowerCase() === lowerName);
}

function toBytes(body: string | Uint8Array | undefined): Uint8Array {
  if (body === undefined) return new Uint8Array(0);
  return typeof body === 'string' ? utf8Encode(body) : body;
}

function encodeMultipartMixed(
  parts: readonly { partHeaders: Record<string, string>; message: Uint8Array }[],
  boundary: string,
): EncodedBatch {
  const pieces: Uint8Array[] = [];
  for (const { partHeaders, message } of parts) {
    let head = `--${boundary}\r\n`;
    for (const [name, value] of Object.entries(partHeaders)) head += `${name}: ${value}\r\n`;
    pieces.push(utf8Encode(`${head}\r\n`), message, utf8Encode('\r\n'));
  }
  pieces.push(utf8Encode(`--${boundary}--\r\n`));
  return { contentType: `multipart/mixed; boundary=${boundary}`, boundary, body: concatBytes(pieces) };
}

/** Splits a whole multipart/mixed body into parts and checks each is `application/http`. */
function readParts(body: Uint8Array, boundary: string): { headers: Record<string, string>; content: Uint8Array }[] {
  const reader = new MultipartReader(boundary);
  const events: MultipartEvent[] = [...reader.push(body), ...reader.end()];
  const parts: { headers: Record<string, string>; chunks: Uint8Array[] }[] = [];
  for (const e of events) {
    if (e.type === 'part') parts.push({ headers: { ...e.headers }, chunks: [] });
    else if (e.type === 'data') parts[parts.length - 1]?.chunks.push(e.bytes);
  }
  if (parts.length === 0) throw new MultipartError('tooFewParts', 'The batch body has no parts.');
  return parts.map(({ headers, chunks }, i) => {
    const type = headers['content-type'];
    if (type !== undefined && parseContentType(type)?.type !== BATCH_PART_CONTENT_TYPE) {
      throw new MultipartError(
        'malformedHttpMessage',
        `Batch part ${i + 1} has Content-Type "${type}"; every part must be ${BATCH_PART_CONTENT_TYPE}.`,
      );
    }
    return { headers, content: concatBytes(chunks) };
  });
}
