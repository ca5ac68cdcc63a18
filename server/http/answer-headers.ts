/**
 * What every transport adds to an answer the same way, from the request's method and headers alone: CORS (every
 * route, incl. preflight) and whether the answer may be gzipped (spec §4.10, supplement §7). The Node adapter and
 * the Fetch adapter both use it, so the service answers alike however it is mounted.
 */
import { EXPOSED_HEADERS } from 'store-upload-kit/protocol';
import type { ApiResponse } from '../api-request.ts';

/** The little of a request these rules read: its method and its headers by lower-case name. */
export interface RequestHead {
  readonly method?: string | undefined;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';
const DEFAULT_ALLOWED_HEADERS =
  'Authorization, Content-Type, Content-Range, Content-Length, X-Upload-Content-Type, X-Upload-Content-Length, Range, If-Match, X-Requested-With';

/** Reason phrases Node does not know (or names after another meaning of the code). */
export const REASON_PHRASES: Readonly<Record<number, string>> = {
  308: 'Resume Incomplete',
  499: 'Client Closed Request',
};

function header(req: RequestHead, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** True for a CORS preflight (an `OPTIONS` naming the method it asks for), answered before any routing. */
export function isPreflight(req: RequestHead): boolean {
  return req.method === 'OPTIONS' && header(req, 'access-control-request-method') !== undefined;
}

/** The CORS headers of every answer. */
export function corsHeaders(req: RequestHead): Record<string, string> {
  const origin = header(req, 'origin');
  return {
    'Access-Control-Allow-Origin': origin ?? '*',
    'Access-Control-Expose-Headers': EXPOSED_HEADERS.join(', '),
    // Lets a page on another origin read the timing of its requests, `nextHopProtocol` among them: the uploader
    // learns from it whether HTTP/2 carries many uploads at once (Resource Timing hides it across origins without).
    'Timing-Allow-Origin': origin ?? '*',
    ...(origin ? { Vary: 'Origin' } : {}),
  };
}

/** The headers of the 204 that answers a preflight. */
export function preflightHeaders(req: RequestHead): Record<string, string> {
  return {
    ...corsHeaders(req),
    'Access-Control-Allow-Methods': ALLOWED_METHODS,
    'Access-Control-Allow-Headers': header(req, 'access-control-request-headers') ?? DEFAULT_ALLOWED_HEADERS,
    'Access-Control-Max-Age': '86400',
  };
}

/** Whether an answer could be gzipped for a request that asks for it: what decides it besides the asking headers. */
function compressible(req: RequestHead, res: ApiResponse): boolean {
  if (req.method === 'HEAD' || res.status === 204 || res.status === 206 || res.status === 304 || res.status === 308)
    return false;
  if (res.body === undefined) return false;
  if (typeof res.body === 'string' || res.body instanceof Uint8Array ? res.body.length === 0 : false) return false;
  if (Object.keys(res.headers).some((k) => k.toLowerCase() === 'content-encoding')) return false;
  return res.headers['Content-Length'] !== '0';
}

/**
 * The request headers a compressible answer varies by, for its `Vary` whether or not this one is gzipped (spec §4.10:
 * gzip needs both `Accept-Encoding: gzip` and "gzip" in the User-Agent), so that a shared cache never hands a gzipped
 * answer to a client that did not ask for one; `undefined` for an answer never compressed.
 */
export function gzipVary(gzipAnyUserAgent: boolean, req: RequestHead, res: ApiResponse): string | undefined {
  if (!compressible(req, res)) return undefined;
  return gzipAnyUserAgent ? 'Accept-Encoding' : 'Accept-Encoding, User-Agent';
}

/** True when the response may be gzipped for this request. */
export function wantsGzip(gzipAnyUserAgent: boolean, req: RequestHead, res: ApiResponse): boolean {
  if (!compressible(req, res)) return false;
  const accept = (header(req, 'accept-encoding') ?? '').toLowerCase();
  const gzipOk = accept.split(',').some((part) => {
    const [name, ...params] = part.trim().split(';');
    if (name?.trim() !== 'gzip') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
  if (!gzipOk) return false;
  return gzipAnyUserAgent || (header(req, 'user-agent') ?? '').toLowerCase().includes('gzip');
}
