/**
 * What differs between a request that came over HTTP/1.1 and one that came over HTTP/2 (Node's compatibility API),
 * so the listener in `node-adapter.ts` serves both: pseudo-headers, the scheme and authority, repeated headers, and
 * what "cut the connection" means (a reset of the one stream on HTTP/2, which carries other requests beside it).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { constants, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import type { TLSSocket } from 'node:tls';

/** A request as either Node server hands it over. */
export type NodeRequest = IncomingMessage | Http2ServerRequest;
/** A response as either Node server hands it over. */
export type NodeResponse = ServerResponse | Http2ServerResponse;

function isHttp2(req: NodeRequest): req is Http2ServerRequest {
  return req.httpVersionMajor === 2;
}

/** Header values by lower-case name, each repetition kept apart (HTTP/2's compatibility request has no `headersDistinct`). */
export function distinctHeaders(req: NodeRequest): Record<string, string[]> {
  if (!isHttp2(req)) return req.headersDistinct as Record<string, string[]>;
  const out: Record<string, string[]> = {};
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2)
    (out[req.rawHeaders[i].toLowerCase()] ??= []).push(req.rawHeaders[i + 1]);
  return out;
}

/** The request's headers as HTTP/1.1 names them: no pseudo-headers, `host` from `:authority`. */
export function plainHeaders(req: NodeRequest): Record<string, string | string[] | undefined> {
  if (!isHttp2(req)) return req.headers;
  const out: Record<string, string | string[] | undefined> = {};
  for (const [name, value] of Object.entries(req.headers)) if (!name.startsWith(':')) out[name] = value;
  out.host ??= req.authority;
  return out;
}

/** `scheme://host[:port]` the client used; undefined when it named no host. */
export function requestOrigin(req: NodeRequest): string | undefined {
  const host = isHttp2(req) ? req.authority || req.headers.host : req.headers.host;
  if (!host) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment -- a plain socket has no `encrypted`: undefined there means not TLS.
  const tls = isHttp2(req) ? req.scheme === 'https' : (req.socket as TLSSocket).encrypted;
  return `${tls ? 'https' : 'http'}://${host}`;
}

/**
 * Drops the request the way its transport allows: the TCP connection on HTTP/1.1, a reset of its own stream
 * (RST_STREAM, INTERNAL_ERROR) on HTTP/2, where the connection carries other requests.
 */
export function cutRequest(req: NodeRequest): void {
  if (isHttp2(req)) req.stream.close(constants.NGHTTP2_INTERNAL_ERROR);
  else req.socket?.destroy();
}

/** True when nothing can be written back any more (the connection or the stream is gone). */
export function responseGone(req: NodeRequest, res: NodeResponse): boolean {
  if (isHttp2(req)) return req.stream.destroyed;
  return !req.socket || req.socket.destroyed || (res as ServerResponse).destroyed;
}

/** True for HTTP/2, which has no reason phrase (Node warns when one is given). */
export function hasReasonPhrase(req: NodeRequest): boolean {
  return !isHttp2(req);
}
