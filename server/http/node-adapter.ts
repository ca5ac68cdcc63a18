/**
 * Node `http` transport: builds an {@link ApiRequest} from an `IncomingMessage`, calls dispatch, and writes the
 * {@link ApiResponse} with CORS (every route, incl. preflight) and gzip (spec §4.10, supplement §7).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip, gzipSync } from 'node:zlib';
import { JSON_CONTENT_TYPE, errorBody } from 'store-upload-kit/protocol';
import { ApiError, supersededError } from '../errors.ts';
import type { Service } from '../service-types.ts';
import { REASON_PHRASES, corsHeaders, isPreflight, preflightHeaders, gzipVary, wantsGzip } from './answer-headers.ts';
import { nextArrival } from './arrivals.ts';
import { limitConnectionsPerClient } from './connections-per-client.ts';
import { failMalformedBody, lingerAfterAnswer, watchBody } from './lingering-close.ts';
import { endable } from './endable-body.ts';
import { nodeBody } from './node-body.ts';
import {
  cutRequest,
  distinctHeaders,
  hasReasonPhrase,
  plainHeaders,
  requestOrigin,
  responseGone,
  type NodeRequest,
  type NodeResponse,
} from './transport.ts';
import type { ApiRequest, ApiResponse } from '../api-request.ts';

/**
 * Headers that carry one value. Node keeps only the first of a repeated `Authorization` or `Content-Type` and
 * silently drops the rest, so a request sent with two different ones would run as whichever came first: refuse
 * it instead, naming the header.
 */
const SINGLE_VALUED = [
  'authorization',
  'content-type',
  'x-upload-content-type',
  'x-upload-content-length',
  'content-range',
  'range',
];

/** A 400 for a single-valued header sent more than once with different values; undefined when there is none. */
function conflictingHeader(req: NodeRequest): ApiError | undefined {
  const distinct = distinctHeaders(req);
  for (const name of SINGLE_VALUED) {
    const values = distinct[name];
    if (values && new Set(values.map((v) => v.trim())).size > 1) {
      return new ApiError(
        400,
        'badRequest',
        `The ${name} header was sent ${values.length} times with different values; send it once.`,
        // A session PUT's Content-Range errors are plain text, as its other upload-protocol errors (supplement §1).
        { where: { location: name, locationType: 'header' }, plainText: name === 'content-range' },
      );
    }
  }
  return undefined;
}

function headerMap(req: NodeRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(plainHeaders(req))) {
    if (v === undefined) continue;
    out[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

/** Writes an ApiResponse; streaming bodies are piped (and gzipped when asked). */
async function writeResponse(svc: Service, req: NodeRequest, res: NodeResponse, api: ApiResponse): Promise<void> {
  const headers: Record<string, string> = { ...corsHeaders(req), ...api.headers };
  const vary = gzipVary(svc.config.gzipAnyUserAgent, req, api);
  if (vary) headers.Vary = headers.Vary ? `${headers.Vary}, ${vary}` : vary;
  const gzip = wantsGzip(svc.config.gzipAnyUserAgent, req, api);
  if (gzip) {
    headers['Content-Encoding'] = 'gzip';
    delete headers['Content-Length'];
  }
  const body = api.body;
  const reason = REASON_PHRASES[api.status];
  const head = (h: Record<string, string>) =>
    reason && hasReasonPhrase(req) ? res.writeHead(api.status, reason, h) : res.writeHead(api.status, h);
  if (body === undefined || req.method === 'HEAD') {
    if (body instanceof Readable) body.destroy();
    const hasLength = Object.keys(headers).some((k) => k.toLowerCase() === 'content-length');
    // HEAD answers with the length the GET would send (RFC 9110 §9.3.2).
    if (!hasLength && body !== undefined && !(body instanceof Readable)) {
      headers['Content-Length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.length);
    } else if (body === undefined && !hasLength && api.status !== 204) headers['Content-Length'] = '0';
    head(headers);
    res.end();
    return;
  }
  if (body instanceof Readable) {
    head(headers);
    await (gzip ? pipeline(body, createGzip(), res) : pipeline(body, res));
    return;
  }
  let bytes: Uint8Array = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  if (gzip) bytes = gzipSync(bytes);
  headers['Content-Length'] = String(bytes.length);
  head(headers);
  res.end(bytes);
}

/** Where a request lands in the service: its path and query below any mount, and the base of the URLs it answers. */
export interface RequestTarget {
  /** The path and query as the service's routes know them (`/store/v3/…`). */
  readonly url: string;
  /** Scheme, host and any mount path, for the absolute URLs an answer carries (a session's `Location`). */
  readonly baseUrl: string;
}

/**
 * The request listener of the service, for HTTP/1.1 and HTTP/2 (compatibility API) requests alike. `locate` says
 * where a request lands when the service is mounted in an app (`handler/`); by default it is the whole URL.
 */
export function createListener(
  svc: Service,
  fallbackBase: () => string,
  locate: (req: NodeRequest) => RequestTarget = (req) => ({
    url: req.url ?? '/',
    baseUrl: requestOrigin(req) ?? fallbackBase(),
  }),
): (req: NodeRequest, res: NodeResponse) => void {
  return (req, res) => {
    void (async () => {
      if (isPreflight(req)) {
        res.writeHead(204, preflightHeaders(req));
        res.end();
        return;
      }
      const { url, baseUrl } = locate(req);
      const q = url.indexOf('?');
      const framing = endable(watchBody(req as IncomingMessage));
      const apiReq: ApiRequest = {
        method: (req.method ?? 'GET').toUpperCase(),
        path: q >= 0 ? url.slice(0, q) : url,
        query: new URLSearchParams(q >= 0 ? url.slice(q + 1) : ''),
        headers: headerMap(req),
        // HTTP/2 framing errors reset the stream in node:http2 itself; only HTTP/1.1's parser reports them here.
        body: nodeBody(req, svc.config.bodyIdleTimeoutMs, framing),
        baseUrl,
        cutConnection: () => cutRequest(req),
        supersede: () => framing.end(supersededError()),
        arrival: nextArrival(),
      };
      const conflict = conflictingHeader(req);
      const api = conflict ? conflict.toResponse() : await svc.dispatch(apiReq);
      if (responseGone(req, res)) {
        if (api.body instanceof Readable) api.body.destroy();
        return;
      }
      // An answer before the whole body arrived: HTTP/1.1 reads the rest and discards it; an HTTP/2 stream is reset alone.
      if (!req.complete && req.httpVersionMajor === 1)
        lingerAfterAnswer(req as IncomingMessage, res as ServerResponse, {
          ms: svc.config.lingerMs,
          bytes: svc.config.lingerBytes,
        });
      await writeResponse(svc, req, res, api);
    })().catch((e: unknown) => {
      // Writing failed (client went away mid-download): nothing more to tell anyone.
      if (!res.headersSent) {
        console.error('store-service: could not answer:', e);
        res.writeHead(500, { 'Content-Type': JSON_CONTENT_TYPE });
        res.end(JSON.stringify(errorBody(500, 'backendError', 'Backend Error')));
      } else res.destroy(e as Error);
    });
  };
}

/** The connection the Node server is still answering on `socket`, if any (pipelined requests queue behind it). */
function pendingResponse(socket: Socket): ServerResponse | undefined {
  const res = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  return res && !res.writableFinished ? res : undefined;
}

/**
 * An HTTP server for the service. No whole-request timeout (1 GiB uploads take long); instead the headers, an idle
 * body and an idle keep-alive connection each have one, and one client address may hold only so many
 * connections. Unparsable input gets a JSON 400 (431 for oversized headers) — written after any answer still
 * owed on the connection, so pipelined answers stay in order (RFC 9112 §9.3.2).
 */
export function createHttpServer(svc: Service): Server {
  const base = () => {
    const a = server.address();
    return a && typeof a === 'object'
      ? `http://${a.address.includes(':') ? `[${a.address}]` : a.address}:${a.port}`
      : 'http://localhost';
  };
  const { headersTimeoutMs, keepAliveTimeoutMs, maxConnectionsPerClient } = svc.config;
  const server: Server = createServer(
    {
      maxHeaderSize: svc.config.maxHeaderSize,
      requestTimeout: 0,
      headersTimeout: headersTimeoutMs,
      keepAliveTimeout: keepAliveTimeoutMs,
      // How often Node looks for connections past the headers timeout.
      connectionsCheckingInterval: Math.max(25, Math.min(30_000, Math.floor(headersTimeoutMs / 4))),
    },
    createListener(svc, base),
  );
  // Node's default keeps the first 2000 raw header entries and drops the rest silently; the size cap (431) bounds
  // what a request may send instead.
  server.maxHeadersCount = 0;
  limitConnectionsPerClient(server, maxConnectionsPerClient, (socket) => {
    const body = JSON.stringify(
      errorBody(
        503,
        'rateLimitExceeded',
        `Too many connections from this address (the limit is ${maxConnectionsPerClient}).`,
      ),
    );
    socket.on('error', () => socket.destroy());
    socket.end(
      `HTTP/1.1 503 Service Unavailable\r\nContent-Type: ${JSON_CONTENT_TYPE}\r\nRetry-After: 1\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    // Bad framing inside a body still arriving: its request answers 400 itself, then lingers.
    if (failMalformedBody(socket, err)) return;
    if (!socket.writable) return socket.destroy();
    const code = err.code ?? '';
    // Only the parser's complaints (HPE_*) about bytes that follow a complete request get an answer. A socket
    // failure, or the connection ending mid-body (HPE_INVALID_EOF_STATE), ends the connection now, so the request
    // in progress sees the end of its body at once (an answer queued behind it would wait for ever).
    const owed = pendingResponse(socket);
    if (!code.startsWith('HPE_') || code === 'HPE_INVALID_EOF_STATE' || (owed && !owed.req.complete))
      return socket.destroy();
    const tooBig = code === 'HPE_HEADER_OVERFLOW';
    const status = tooBig ? 431 : 400;
    const message = tooBig
      ? `The request headers are larger than the limit of ${svc.config.maxHeaderSize} bytes.`
      : `The request is not valid HTTP: ${err.message}${code ? ` (${code})` : ''}.`;
    const body = JSON.stringify(errorBody(status, tooBig ? 'headersTooLarge' : 'badRequest', message));
    let answered = false;
    const answer = () => {
      if (answered) return;
      answered = true;
      if (!socket.writable) return socket.destroy();
      socket.end(
        `HTTP/1.1 ${status} ${tooBig ? 'Request Header Fields Too Large' : 'Bad Request'}\r\nContent-Type: ${JSON_CONTENT_TYPE}\r\n` +
          `Access-Control-Allow-Origin: *\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    };
    if (!owed) return answer();
    // The earlier request's answer goes first; the connection closes after this one.
    owed.once('finish', answer);
    owed.once('close', answer);
  });
  return server;
}
