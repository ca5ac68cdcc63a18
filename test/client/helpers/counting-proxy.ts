// A real HTTP proxy in front of the service that counts the body bytes of every request it receives and forwards,
// and can throttle how fast it reads them (so a page reload lands in the middle of an upload on loopback). A request
// the client abandons mid-body is cut towards the service too, as a dropped connection would be.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One proxied request. */
export interface ProxiedRequest {
  method: string;
  /** Path and query. */
  url: string;
  /** Body bytes received from the client. */
  received: number;
  /** Body bytes handed on to the service (written to its socket). */
  forwarded: number;
  /** True when the client went away before the whole body arrived. */
  cut: boolean;
  status?: number;
}

export interface CountingProxy {
  url: string;
  requests: ProxiedRequest[];
  /** Bytes per second the proxy reads request bodies at; `undefined` for no limit. */
  rate: number | undefined;
  close(): Promise<void>;
}

export async function startCountingProxy(target: string, rate?: number): Promise<CountingProxy> {
  const upstream = new URL(target);
  const proxy: CountingProxy = { url: '', requests: [], rate, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    const entry: ProxiedRequest = { method: req.method ?? '', url: req.url ?? '', received: 0, forwarded: 0, cut: false };
    proxy.requests.push(entry);
    const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      entry.status = answer.statusCode;
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.destroy());
    const began = Date.now();
    let ended = false;
    req.on('data', (chunk: Buffer) => {
      entry.received += chunk.length;
      out.write(chunk, () => (entry.forwarded += chunk.length));
      const limit = proxy.rate;
      if (limit) {
        const ahead = (entry.received / limit) * 1000 - (Date.now() - began);
        if (ahead > 5) {
          req.pause();
          setTimeout(() => req.resume(), ahead);
        }
      }
    });
    req.on('end', () => {
      ended = true;
      out.end();
    });
    req.on('close', () => {
      if (ended) return;
      entry.cut = true;
      out.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}

/** Body bytes sent to resumable sessions (data PUTs), summed over every request. */
export function sessionBytes(requests: readonly ProxiedRequest[]): number {
  return requests.filter((r) => r.method === 'PUT' && r.url.includes('upload_id=')).reduce((sum, r) => sum + r.received, 0);
}
