/**
 * The HTTP messages carried inside batch parts (`application/http`): split one into start line, headers and body,
 * and write one back. Line breaks may be CRLF or LF, as anywhere in the multipart codecs.
 */
import { MultipartError } from './multipart-error.ts';
import { latin1Decode, utf8Encode, concatBytes } from './multipart-text.ts';

/** An HTTP message read from a batch part. */
export interface HttpMessage {
  /** The request or status line, without its line break. */
  readonly startLine: string;
  /** Header names lower-cased; repeated headers joined with `, `. */
  readonly headers: Record<string, string>;
  readonly body: Uint8Array;
}

const LF = 10;
const CR = 13;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Parses the content of one batch part. Leading blank lines are skipped; a message without a blank line after its
 * headers has an empty body. The body is cut to `Content-Length` when that header is present; without it, a body
 * of only line breaks counts as empty (clients often leave one before the next delimiter).
 * @param part 1-based part number, for messages.
 * @throws MultipartError `malformedHttpMessage`.
 */
export function parseHttpMessage(bytes: Uint8Array, part: number): HttpMessage {
  let pos = 0;
  const lines: string[] = [];
  let bodyStart = bytes.length;
  while (pos < bytes.length) {
    const lf = bytes.indexOf(LF, pos);
    const end = lf === -1 ? bytes.length : lf;
    const lineEnd = end > pos && bytes[end - 1] === CR ? end - 1 : end;
    const next = lf === -1 ? bytes.length : lf + 1;
    if (lineEnd === pos) {
      if (lines.length > 0) {
        bodyStart = next;
        break;
      }
    } else {
      lines.push(latin1Decode(bytes.subarray(pos, lineEnd)));
    }
    pos = next;
  }
  const [startLine, ...headerLines] = lines;
  if (startLine === undefined) throw malformed(part, 'it is empty');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trim() : '';
    if (!TOKEN.test(name)) throw malformed(part, `header line "${line.slice(0, 100)}" is not "Name: value"`);
    const key = name.toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[key] = key in headers ? `${headers[key]}, ${value}` : value;
  }
  let body = bytes.subarray(Math.min(bodyStart, bytes.length));
  const declared = headers['content-length'];
  if (declared !== undefined) {
    if (!/^\d+$/.test(declared)) throw malformed(part, `Content-Length "${declared}" is not a number`);
    const length = Number(declared);
    if (length > body.length) {
      throw malformed(part, `its body has ${body.length} bytes, fewer than its Content-Length of ${length}`);
    }
    body = body.subarray(0, length);
  } else if (body.every((b) => b === CR || b === LF)) {
    body = body.subarray(0, 0);
  }
  return { startLine, headers, body };
}

/** Writes a start line, headers and body as an HTTP message with CRLF line breaks. */
export function formatHttpMessage(
  startLine: string,
  headers: Readonly<Record<string, string>>,
  body: Uint8Array,
): Uint8Array {
  let head = `${startLine}\r\n`;
  for (const [name, value] of Object.entries(headers)) {
    if (!TOKEN.test(name)) throw new TypeError(`invalid header name "${name}"`);
    if (/[\r\n]/.test(value)) throw new TypeError(`header "${name}" contains a line break`);
    head += `${name}: ${value}\r\n`;
  }
  head += '\r\n';
  return concatBytes([utf8Encode(head), body]);
}

/** True for a valid HTTP method token. */
export function isMethodToken(s: string): boolean {
  return TOKEN.test(s);
}

function malformed(part: number, why: string): MultipartError {
  return new MultipartError('malformedHttpMessage', `Batch part ${part} is not a valid HTTP message: ${why}.`);
}
