/**
 * Raw HTTP/1.1 over a TCP socket, for what `http.request` will not send: bodies cut off part-way, stalls, stray
 * bytes after a body, pipelined requests, malformed headers. Every wait has a timeout.
 */
import { connect, type Socket } from 'node:net';

/** A raw connection to the service. */
export interface RawConnection {
  readonly socket: Socket;
  /** Everything received so far. */
  received(): Buffer;
  /** Writes bytes and waits until they are handed to the OS. */
  write(bytes: string | Uint8Array): Promise<void>;
  /** Resolves once the received bytes satisfy `test` (or rejects after `timeoutMs`). */
  waitFor(test: (text: string) => boolean, timeoutMs?: number, what?: string): Promise<string>;
  /** Resolves when the server closes the connection (or rejects after `timeoutMs`). */
  closed(timeoutMs?: number): Promise<string>;
  /** Destroys the connection (a client that drops). */
  drop(): void;
}

/** Opens a raw connection to `baseUrl` (`http://host:port`). */
export function openRaw(baseUrl: string): Promise<RawConnection> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    let ended = false;
    const waiters = new Set<() => void>();
    const wake = () => waiters.forEach((w) => w());
    /** Re-runs `check` on every event until it settles, or fails after `timeoutMs`. */
    const until = <T>(
      timeoutMs: number,
      timeoutMessage: () => string,
      check: () => { value: T } | { error: string } | undefined,
    ): Promise<T> =>
      new Promise<T>((res, rej) => {
        const run = () => {
          const r = check();
          if (r === undefined) return;
          done();
          if ('value' in r) res(r.value);
          else rej(new Error(r.error));
        };
        const timer = setTimeout(() => {
          done();
          rej(new Error(timeoutMessage()));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(run);
        };
        waiters.add(run);
        run();
      });
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      wake();
    });
    socket.on('close', () => {
      ended = true;
      wake();
    });
    // A reset from the server is one way for a connection to close; the tests assert on what was received.
    socket.on('error', () => undefined);
    socket.once('connect', () => {
      const conn: RawConnection = {
        socket,
        received: () => Buffer.concat(chunks),
        write: (bytes) =>
          new Promise((res, rej) => {
            if (socket.destroyed) return rej(new Error('the connection is closed'));
            socket.write(bytes, (e) => (e ? rej(e) : res()));
          }),
        waitFor(test, timeoutMs = 10_000, what = 'the expected answer') {
          return until<string>(
            timeoutMs,
            () => `no ${what} within ${timeoutMs} ms; received:\n${conn.received().toString('latin1').slice(0, 2000)}`,
            () => {
              const text = conn.received().toString('latin1');
              if (test(text)) return { value: text };
              if (ended) return { error: `the connection closed before ${what}; received:\n${text.slice(0, 2000)}` };
              return undefined;
            },
          );
        },
        closed(timeoutMs = 10_000) {
          return until<string>(
            timeoutMs,
            () => `the server kept the connection open for ${timeoutMs} ms`,
            () => (ended ? { value: conn.received().toString('latin1') } : undefined),
          );
        },
        drop: () => socket.destroy(),
      };
      resolve(conn);
    });
    socket.once('error', reject);
  });
}

/** The request head of `method path` with `headers` (CRLF framed, ends with the blank line). */
export function requestHead(method: string, path: string, headers: Record<string, string | number>): string {
  const lines = [`${method} ${path} HTTP/1.1`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** Status codes of every response head in `text`, in order. */
export function statuses(text: string): number[] {
  return [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));
}
