/**
 * An HTTP load balancer for tests of several nodes: each request goes to the next node in turn (no stickiness, so
 * the chunks and status queries of one upload reach different nodes), bodies streamed both ways, the client's
 * `Host` kept (so the session URIs nodes hand out point back here). A node that resets a request's connection
 * resets the client's, as a connection-level balancer would; a node that is down (or restarting) answers 502. It
 * knows which node each request in flight is on, so a test can kill the node an upload is sending to.
 */
import { type IncomingMessage, request, type Server, type ServerResponse, createServer, Agent } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running proxy. */
export interface RoundRobinProxy {
  readonly url: string;
  /** Requests sent to each node so far. */
  readonly counts: number[];
  /** The requests in flight now (sent on, their answer not yet all back), with the index of their node. */
  readonly live: ReadonlySet<LiveRequest>;
  close(): Promise<void>;
}

/** A request the proxy is passing on now. */
export interface LiveRequest {
  readonly node: number;
  readonly method: string;
  /** Path and query. */
  readonly url: string;
}

/** Starts a proxy in front of `nodes` (their `http://host:port` origins, read at each request). */
export async function startRoundRobinProxy(nodes: () => readonly string[]): Promise<RoundRobinProxy> {
  let next = 0;
  const counts: number[] = [];
  const live = new Set<LiveRequest>();
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const targets = nodes();
    const index = next++ % targets.length;
    counts[index] = (counts[index] ?? 0) + 1;
    if (!targets[index]) return void res.writeHead(502).end(`node ${index} is restarting`);
    const entry: LiveRequest = { node: index, method: req.method ?? 'GET', url: req.url ?? '/' };
    live.add(entry);
    res.on('close', () => live.delete(entry));
    const target = new URL(req.url ?? '/', targets[index]);
    // A request with no body may be sent again: as a balancer does (nginx's proxy_next_upstream), once a pooled
    // connection the node was closing at that instant (its keep-alive timeout, a loaded machine's lag past the agent's
    // margin) resets it before any answer. One with a body was streamed on and cannot be.
    const bodiless = req.headers['content-length'] === undefined || req.headers['content-length'] === '0';
    const replayable = bodiless && req.headers['transfer-encoding'] === undefined;
    const forward = (retries: number): void => {
      const upstream = request(
        target,
        { method: req.method, headers: req.headers, agent, setHost: false },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
          answer.pipe(res);
          answer.on('error', () => res.destroy());
          // The node cut its answer short: so does the proxy.
          answer.on('aborted', () => res.destroy());
        },
      );
      upstream.on('error', (e) => {
        const code = (e as NodeJS.ErrnoException).code;
        if (res.headersSent) res.destroy();
        else if (code === 'ECONNREFUSED') res.writeHead(502).end(`node ${index} is down`);
        else if (replayable && upstream.reusedSocket && code === 'ECONNRESET' && retries > 0) forward(retries - 1);
        // The node reset the request (a cut, a superseded request): reset the client's connection too.
        else req.socket.destroy();
      });
      if (replayable) upstream.end();
      else {
        req.pipe(upstream);
        req.on('error', () => upstream.destroy());
      }
      // The client went away: the node's request goes too, as on a direct connection.
      res.on('close', () => {
        if (!res.writableFinished) upstream.destroy();
      });
    };
    forward(2);
  });
  // Longer than a Node client keeps an idle connection (the global agent's 5 s): the client always closes first, so it
  // never writes a request on a connection the proxy is closing at that instant (a reset before any answer).
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    live,
    async close() {
      agent.destroy();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
