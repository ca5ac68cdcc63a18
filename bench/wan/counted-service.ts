/**
 * The reference service over HTTPS (HTTP/2 and HTTP/1.1 by ALPN, as `store-service --https`) in a child process of
 * its own, counting every request it receives: behind the WAN link the bytes are TLS, so requests are counted
 * where they are answered. A process of its own because the service's TLS, hashing and disk work on the bench's
 * event loop delays the link's timers (measured: a 32 MiB PUT at 200 Mbit/s took 1.22–1.45 × its limit with the
 * service in the same process, 1.03 in its own). Beside it, on a port of its own, a tus server for the peers.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { defaultConfig } from '../../server/config.ts';
import { ensureDevCertificates } from '../../server/http/dev-certificates.ts';
import { createHttpsServer } from '../../server/http/https-server.ts';
import { createService } from '../../server/service.ts';
import { startTusServer } from './tus-server.ts';

/** One request as the service saw it. */
export interface SeenRequest {
  method: string;
  path: string;
  /** `2.0` or `1.1`. */
  httpVersion: string;
  /** Epoch ms: the request's head arrived, its first body byte arrived, its answer was sent (for timelines). */
  at: number;
  firstByteAt?: number;
  answeredAt?: number;
}

/** A running counted service. */
export interface CountedService {
  /** `https://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** The development CA (PEM) its certificate is signed by. */
  ca: string;
  /** The tus server's port (same certificate) and the folder its uploads land in. */
  tusPort: number;
  tusDir: string;
  /** The requests received since the last call. */
  takeRequests(): Promise<SeenRequest[]>;
  /** CPU seconds the service process has used so far. */
  cpuSeconds(): Promise<number>;
  stop(): Promise<void>;
}

type Ready = { url: string; port: number; caPath: string; tusPort: number };

/** Runs in the child: the service, and the request list on demand over IPC. */
async function serve(): Promise<void> {
  const dir = process.argv[process.argv.indexOf('--counted-service') + 1];
  const tls = await ensureDevCertificates(join(dir, 'tls'));
  const service = await createService({ dataDir: join(dir, 'data'), config: defaultConfig(), admin: true });
  const server = createHttpsServer(service, tls);
  let requests: SeenRequest[] = [];
  const seen = (req: { method?: string; url?: string; httpVersion: string }) =>
    void requests.push({
      method: req.method ?? '',
      path: (req.url ?? '').split('?')[0],
      httpVersion: req.httpVersion,
      at: Date.now(),
    });
  server.prependListener('request', (req: Http2ServerRequest, res: Http2ServerResponse) => {
    seen(req);
    const r = requests.at(-1)!;
    req.prependOnceListener('data', () => (r.firstByteAt = Date.now()));
    res.once('finish', () => (r.answeredAt = Date.now()));
  });
  const tus = await startTusServer(tls, join(dir, 'tus'), seen);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  process.on('message', (m) => {
    if (m === 'cpu') {
      const { user, system } = process.cpuUsage();
      return void process.send!((user + system) / 1e6);
    }
    if (m !== 'take') return;
    process.send!(requests);
    requests = [];
  });
  process.on('disconnect', () => process.exit(0));
  process.send!({ url: `https://127.0.0.1:${port}`, port, caPath: tls.caPath, tusPort: tus.port } satisfies Ready);
}

/** Starts the service on a fresh data directory in a child process. */
export async function startCountedService(): Promise<CountedService> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-wan-service-'));
  const child: ChildProcess = fork(import.meta.filename, ['--counted-service', dir], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('message', (m) => resolve(m as Ready));
    child.once('exit', (code) => reject(new Error(`the counted service exited with ${code}`)));
  });
  const ask = <T>(question: string) =>
    new Promise<T>((resolve) => {
      child.once('message', (m) => resolve(m as T));
      child.send(question);
    });
  return {
    url: ready.url,
    port: ready.port,
    ca: readFileSync(ready.caPath, 'utf8'),
    tusPort: ready.tusPort,
    tusDir: join(dir, 'tus'),
    takeRequests: () => ask<SeenRequest[]>('take'),
    cpuSeconds: () => ask<number>('cpu'),
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.disconnect();
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

if (
  process.argv.includes('--counted-service') &&
  process.argv[1] &&
  import.meta.url === pathToFileURL(process.argv[1]).href
)
  await serve();
