// A real HTTP proxy in front of the service that can lose a response after the service handled the request, or
// flip a byte of a request body on the way: the two network faults the service's own admin faults cannot make.
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What to do with one proxied request. */
export type ProxyRule = (req: IncomingMessage) => 'pass' | 'lose-response' | 'corrupt-body';

export interface FaultProxy {
  url: string;
  /** Requests seen, as `METHOD path?query`. */
  seen: string[];
  close(): Promise<void>;
}

export async function startFaultProxy(target: string, rule: ProxyRule): Promise<FaultProxy> {
  const upstream = new URL(target);
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const action = rule(req);
    const out = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        if (action === 'lose-response') {
          answer.resume();
          answer.on('end', () => req.socket.destroy());
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    let flipped = action !== 'corrupt-body';
    req.on('data', (chunk: Buffer) => {
      if (!flipped && chunk.length > 0) {
        chunk = Buffer.from(chunk);
        chunk[chunk.length - 1] ^= 0xff;
        flipped = true;
      }
      out.write(chunk);
    });
    req.on('end', () => out.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
