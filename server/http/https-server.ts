/**
 * The service over TLS with HTTP/2 and HTTP/1.1 on one port (ALPN picks), the same request listener as the plain
 * HTTP server. Browsers speak HTTP/2 only over TLS, and only HTTP/2 lets a page keep more than 6 requests in
 * flight to one host.
 */
import {
  createSecureServer,
  type Http2SecureServer,
  type Http2ServerRequest,
  type Http2ServerResponse,
  type Http2Session,
} from 'node:http2';
import type { Socket } from 'node:net';
import { JSON_CONTENT_TYPE, errorBody } from 'store-upload-kit/protocol';
import type { Service } from '../service-types.ts';
import { limitConnectionsPerClient } from './connections-per-client.ts';
import { createListener } from './node-adapter.ts';
import type { NodeRequest, NodeResponse } from './transport.ts';

const MiB = 1024 * 1024;

/**
 * Flow-control windows. Node's default is HTTP/2's 64 KiB per stream and per connection: a sender may have only that
 * much unacknowledged, so an upload moves 64 KiB per round trip (5 Mbit/s at 100 ms; on loopback every window
 * update waits for the event loop). A window covers one bandwidth-delay product: 8 MiB per stream fills 670 Mbit/s
 * at 100 ms; the connection's window lets four such streams run at once. The service reads bodies as they come, so
 * the window bounds what a slow disk could leave buffered, not what normally is.
 */
const STREAM_WINDOW_BYTES = 8 * MiB;
const SESSION_WINDOW_BYTES = 32 * MiB;

/** HTTP/2's measure of a header list (RFC 9113 §6.5.2): name and value octets plus 32 per field. */
function headerListSize(req: Http2ServerRequest): number {
  let size = 0;
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2)
    size += Buffer.byteLength(req.rawHeaders[i]) + Buffer.byteLength(req.rawHeaders[i + 1]) + 32;
  return size;
}

/**
 * The plain server's 431 for oversized headers, over HTTP/2. nghttp2 would reset the stream past its own limit, so
 * its limit is set well above the service's and the request is judged here, where it can still be answered.
 */
function refuseLargeHeaders(svc: Service, listener: (req: NodeRequest, res: NodeResponse) => void) {
  return (req: NodeRequest, res: NodeResponse) => {
    if (req.httpVersionMajor !== 2 || headerListSize(req as Http2ServerRequest) <= svc.config.maxHeaderSize) {
      listener(req, res);
      return;
    }
    const limit = svc.config.maxHeaderSize;
    (res as Http2ServerResponse).writeHead(431, {
      'content-type': JSON_CONTENT_TYPE,
      'access-control-allow-origin': req.headers.origin ?? '*',
    });
    res.end(
      JSON.stringify(
        errorBody(431, 'headersTooLarge', `The request headers are larger than the limit of ${limit} bytes.`),
      ),
    );
  };
}

/** TLS certificate and key (PEM) the server presents. */
export interface TlsIdentity {
  readonly cert: string;
  readonly key: string;
}

/**
 * An HTTPS server for the service speaking HTTP/2 and HTTP/1.1. Limits as the plain server has them: the header
 * size (431) and connections per client address (closed at once past the limit: an HTTP/1.1 503 written into a TLS
 * stream that may be HTTP/2 would be garbage).
 */
export function createHttpsServer(svc: Service, tls: TlsIdentity): Http2SecureServer & { closeAllConnections(): void } {
  const base = () => {
    const a = server.address();
    return a && typeof a === 'object'
      ? `https://${a.address.includes(':') ? `[${a.address}]` : a.address}:${a.port}`
      : 'https://localhost';
  };
  const server: Http2SecureServer = createSecureServer(
    {
      cert: tls.cert,
      key: tls.key,
      allowHTTP1: true,
      settings: {
        initialWindowSize: STREAM_WINDOW_BYTES,
        maxHeaderListSize: 4 * svc.config.maxHeaderSize,
        maxConcurrentStreams: 256,
      },
      // nghttp2 counts what it holds for a session against this (MB); a full stream window must fit several times.
      maxSessionMemory: 128,
    },
    refuseLargeHeaders(svc, createListener(svc, base)),
  );
  server.on('session', (session: Http2Session) => session.setLocalWindowSize(SESSION_WINDOW_BYTES));
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  limitConnectionsPerClient(server, svc.config.maxConnectionsPerClient, (socket) => socket.destroy());
  // What the plain HTTP server has built in: a close that does not wait for open sessions.
  return Object.assign(server, { closeAllConnections: () => sockets.forEach((s) => s.destroy()) });
}
