/**
 * Fetch API transport: builds an {@link ApiRequest} from a `Request`, calls the same dispatch as the Node adapter,
 * and answers a `Response` with the same CORS and gzip. For hosts whose handlers take a `Request` (Next.js route
 * handlers, Hono, Bun); the body streams both ways.
 */
import { Readable } from 'node:stream';
import { createGzip, gzipSync } from 'node:zlib';
import { JSON_CONTENT_TYPE, errorBody } from 'store-upload-kit/protocol';
import type { ApiRequest, ApiResponse } from '../api-request.ts';
import { supersededError } from '../errors.ts';
import type { Service } from '../service-types.ts';
import { corsHeaders, isPreflight, preflightHeaders, gzipVary, wantsGzip, type RequestHead } from './answer-headers.ts';
import { nextArrival } from './arrivals.ts';
import { fetchBody } from './fetch-body.ts';
import type { RequestTarget } from './node-adapter.ts';

/** Header values by lower-case name (a Fetch `Headers` joins repeated ones with ", " itself). */
function headerRecord(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => (out[name] = value));
  return out;
}

/** The answer's body as a Fetch body, gzipped when asked; none for HEAD and for bodiless statuses. */
function responseBody(api: ApiResponse, head: RequestHead, gzip: boolean): ConstructorParameters<typeof Response>[0] {
  const body = api.body;
  if (body === undefined || head.method === 'HEAD' || [204, 304].includes(api.status)) {
    if (body instanceof Readable) body.destroy();
    return null;
  }
  if (body instanceof Readable) {
    const source = gzip ? body.pipe(createGzip()) : body;
    if (gzip) body.on('error', (e) => source.destroy(e));
    return Readable.toWeb(source) as ReadableStream<Uint8Array>;
  }
  const bytes: Uint8Array = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  return gzip ? gzipSync(bytes) : bytes;
}

/** Writes an ApiResponse as a `Response`. */
function toResponse(svc: Service, head: RequestHead, api: ApiResponse): Response {
  const headers = new Headers({ ...corsHeaders(head), ...api.headers });
  const vary = gzipVary(svc.config.gzipAnyUserAgent, head, api);
  if (vary) headers.append('Vary', vary);
  const gzip = wantsGzip(svc.config.gzipAnyUserAgent, head, api);
  if (gzip) {
    headers.set('Content-Encoding', 'gzip');
    headers.delete('Content-Length');
  }
  const body = responseBody(api, head, gzip);
  if (body instanceof Uint8Array) headers.set('Content-Length', String(body.length));
  else if (head.method === 'HEAD' && !headers.has('Content-Length') && api.body !== undefined) {
    // HEAD answers with the length the GET would send (RFC 9110 §9.3.2).
    if (!(api.body instanceof Readable))
      headers.set(
        'Content-Length',
        String(typeof api.body === 'string' ? Buffer.byteLength(api.body) : api.body.length),
      );
  }
  return new Response(body, { status: api.status, headers });
}

/** The service as a Fetch handler; `locate` says where each request lands below the app's mount. */
export function createFetchListener(
  svc: Service,
  locate: (request: Request) => RequestTarget,
): (request: Request) => Promise<Response> {
  return async (request) => {
    const head: RequestHead = { method: request.method.toUpperCase(), headers: headerRecord(request.headers) };
    try {
      if (isPreflight(head)) return new Response(null, { status: 204, headers: preflightHeaders(head) });
      const { url, baseUrl } = locate(request);
      const q = url.indexOf('?');
      const body = fetchBody(request, svc.config.bodyIdleTimeoutMs);
      const apiReq: ApiRequest = {
        method: head.method!,
        path: q >= 0 ? url.slice(0, q) : url,
        query: new URLSearchParams(q >= 0 ? url.slice(q + 1) : ''),
        headers: head.headers as Record<string, string>,
        body,
        baseUrl,
        supersede: () => body.end(supersededError()),
        arrival: nextArrival(),
      };
      return toResponse(svc, head, await svc.dispatch(apiReq));
    } catch (e) {
      console.error('store-service: could not answer:', e);
      return new Response(JSON.stringify(errorBody(500, 'backendError', 'Backend Error')), {
        status: 500,
        headers: { 'Content-Type': JSON_CONTENT_TYPE },
      });
    }
  };
}
