import { MultipartError } from './multipart-error.ts';

/** A parsed media type: `type` is lower-cased `type/subtype`; parameter names are lower-cased, values kept as sent. */
export interface ContentType {
  readonly type: string;
  readonly params: Readonly<Record<string, string>>;
}

/**
 * Parses a `Content-Type` header value (RFC 9110 §8.3): `type/subtype` then `; name=value` parameters, where a
 * value may be a quoted string with backslash escapes. Lenient the way servers are: white space around `;` and `=`
 * is allowed, a parameter without `=` is skipped, the first occurrence of a name wins. Returns `undefined` for an
 * empty or absent header or one without a `/`.
 */
export function parseContentType(header: string | undefined | null): ContentType | undefined {
  if (!header) return undefined;
  const semi = header.indexOf(';');
  const type = (semi === -1 ? header : header.slice(0, semi)).trim().toLowerCase();
  if (!/^[^\s/]+\/[^\s/]+$/.test(type)) return undefined;
  const params: Record<string, string> = {};
  let i = semi === -1 ? header.length : semi + 1;
  while (i < header.length) {
    i = skipSpaces(header, i);
    const eq = header.indexOf('=', i);
    const nextSemi = header.indexOf(';', i);
    if (eq === -1 || (nextSemi !== -1 && nextSemi < eq)) {
      // A bare token without a value: skip to the next parameter.
      i = nextSemi === -1 ? header.length : nextSemi + 1;
      continue;
    }
    const name = header.slice(i, eq).trim().toLowerCase();
    i = skipSpaces(header, eq + 1);
    let value: string;
    if (header[i] === '"') {
      value = '';
      i++;
      while (i < header.length && header[i] !== '"') {
        if (header[i] === '\\' && i + 1 < header.length) i++;
        value += header[i];
        i++;
      }
      i++; // closing quote (or past the end if it was missing: take what we have)
      const after = header.indexOf(';', i);
      i = after === -1 ? header.length : after + 1;
    } else {
      const end = header.indexOf(';', i);
      value = header.slice(i, end === -1 ? header.length : end).trim();
      i = end === -1 ? header.length : end + 1;
    }
    if (name && !(name in params)) params[name] = value;
  }
  return { type, params };
}

function skipSpaces(s: string, i: number): number {
  while (i < s.length && (s[i] === ' ' || s[i] === '\t')) i++;
  return i;
}

/**
 * The boundary of a `multipart/<subtype>` body from its `Content-Type` header (quoted or not).
 * @throws MultipartError `wrongContentType` when the type is not `multipart/<subtype>`, `missingBoundary` when the
 *   parameter is absent, empty or longer than RFC 2046's 70 characters.
 */
export function multipartBoundary(header: string | undefined | null, subtype: 'related' | 'mixed'): string {
  const parsed = parseContentType(header);
  const expected = `multipart/${subtype}`;
  if (!parsed || parsed.type !== expected) {
    throw new MultipartError(
      'wrongContentType',
      `Content-Type must be ${expected} with a boundary parameter; got ${header ? `"${header}"` : 'none'}.`,
    );
  }
  const boundary = parsed.params['boundary'];
  if (boundary === undefined || boundary === '') {
    throw new MultipartError('missingBoundary', `Missing boundary parameter in Content-Type "${header}".`);
  }
  if (boundary.length > 70) {
    throw new MultipartError(
      'missingBoundary',
      `Boundary parameter is longer than 70 characters (${boundary.length}).`,
    );
  }
  return boundary;
}
