/**
 * The Node client test's own loopback proxy (not part of the product): rewrites the path prefixes
 * `/drive/v3`, `/upload/drive/v3` and `/batch/drive/v3` that `@googleapis/drive` hard-codes to the service's
 * `/store/v3` ones, and records every request it forwarded. Bodies and headers pass through untouched.
 */
import { type IncomingMessage, type Server, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the proxy forwarded. */
export interface Forwarded {
  readonly method: string;
  /** The path and query the client sent. */
  readonly from: string;
  /** The path and query sent to the service. */
  readonly to: string;
  readonly status: number;
  readonly contentType: string | undefined;
}

/** A running proxy: `url` to give the client as `rootUrl`, `seen` the forwarded requests, `close()`. */
export interface PathProxy {
  readonly url: string;
  readonly seen: Forwarded[];
  close(): Promise<void>;
}

const rewrite = (path: string) => path.replace(/^\/(upload\/|batch\/)?drive\/v3(?=[/?]|$)/, '/$1store/v3');

/** Starts the proxy on 127.0.0.1 (port 0) in front of `target` (`http://127.0.0.1:<port>`). */
export async function startPathProxy(target: string): Promise<PathProxy> {
  const seen: Forwarded[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    const from = req.url ?? '/';
    const to = rewrite(from);
    const upstream = request(
      `${target}${to}`,
      { method: req.method, headers: { ...req.headers, host: new URL(target).host } },
      (up) => {
        seen.push({
          method: req.method ?? '',
          from,
          to,
          status: up.statusCode ?? 0,
          contentType: req.headers['content-type'],
        });
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
