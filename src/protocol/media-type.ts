/** Syntax of a MIME type as clients send it in `Content-Type`, `X-Upload-Content-Type` and metadata `mimeType`. */
import { SCRIPT_TEXT_MIME } from './native.ts';

/** RFC 9110 `token`: the characters a type and a subtype may use. */
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}$`);

/**
 * True when `value` is a bare `type/subtype` (no parameters), or the service's special script import type
 * `application/vnd.svc-apps.script+text/plain`, whose subtype contains a slash.
 */
export function isMediaType(value: string): boolean {
  return MEDIA_TYPE.test(value) || value.toLowerCase() === SCRIPT_TEXT_MIME;
}

/** The `type/subtype` of a header value without its parameters, lower-case and trimmed (`''` when empty). */
export function bareMediaType(header: string): string {
  return (header.split(';')[0] ?? '').trim().toLowerCase();
}
