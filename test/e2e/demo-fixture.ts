/**
 * What the demo specs share: a real `store-service` (port 0, temp data dir, `--admin`, via the server tests'
 * helper), the built demos (`npm run build:demos` → `dist/demos/`) served by a small static server, and the page URL
 * that points a demo at that service. With `{ relay: true }` it also runs a real `store-relay` (temp certificate
 * dir), gives the service a config that trusts the relay's CA and lists it as verified and registered, and proxies
 * `/relay/…` on the static server to it, the way `npm start` does, so the page reads the feed same-origin.
 */
import { createReadStream, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { startRelayProcess, type RelayProcess } from './relay-process.ts';

/** Where `npm run build:demos` writes (override with DEMOS_DIR). */
export const DEMOS_DIR = resolve(process.env['DEMOS_DIR'] ?? 'dist/demos');
/** The same-origin path the page reads the relay through (as `npm start`'s dev server does). */
const RELAY_PATH = '/relay';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
};

/** A running service plus the built demos, and how to open a demo page against that service. */
export interface DemoFixture {
  service: ServiceHandle;
  /** `http://127.0.0.1:<port>` of the static server. */
  origin: string;
  /** The relay's own `https://localhost:<port>` when started with `{ relay: true }`. */
  relayUrl: string | undefined;
  /** URL of a demo page (`''`, `'react/'`, `'vue/'`) pointed at the service (and the relay, when there is one). */
  pageUrl(page?: '' | 'react/' | 'vue/'): string;
  stop(): Promise<void>;
}

/** Options of {@link startDemoFixture}. */
export interface DemoFixtureOptions {
  /** Also run `store-relay` and wire the service and the page to it (the live change feed). */
  relay?: boolean;
}

/** Starts the service (and the relay) and serves the built demos; fails clearly when they were not built. */
export async function startDemoFixture(options: DemoFixtureOptions = {}): Promise<DemoFixture> {
  if (!existsSync(join(DEMOS_DIR, 'index.html')))
    throw new Error(`No built demos in ${DEMOS_DIR}: run npm run build:demos first`);
  const relay = options.relay ? await startDemoRelay() : undefined;
  const service = await startService(
    relay ? { config: { verifiedDomains: [relay.url], registeredDomains: [relay.url], trustCa: [relay.caPath] } } : {},
  );
  const server = serveDemos(DEMOS_DIR, relay);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    service,
    origin,
    relayUrl: relay?.url,
    pageUrl: (page = '') =>
      `${origin}/${page}?service=${encodeURIComponent(service.url)}&token=dev-token-alice${relay ? `&relay=${encodeURIComponent(RELAY_PATH)}` : ''}`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      await service.stop();
      await relay?.stop();
    },
  };
}

/** A `store-relay` child process with its own temp certificate dir, and its CA for the page's proxy. */
interface DemoRelay extends RelayProcess {
  caPem: string;
}

async function startDemoRelay(): Promise<DemoRelay> {
  const dir = mkdtempSync(join(tmpdir(), 'demo-relay-'));
  const relay = await startRelayProcess(join(dir, 'certs'));
  return {
    ...relay,
    caPem: readFileSync(relay.caPath, 'utf8'),
    stop: async () => {
      await relay.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function serveDemos(dir: string, relay: DemoRelay | undefined): Server {
  return createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    if (relay && (pathname === RELAY_PATH || pathname.startsWith(`${RELAY_PATH}/`)))
      return proxyToRelay(req, res, relay);
    const path = normalize(decodeURIComponent(pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = join(dir, path.endsWith('/') ? `${path}index.html` : path);
    if (!file.startsWith(dir) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${path}`);
      return;
    }
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-store',
    });
    createReadStream(file).pipe(res);
  });
}

/** Forwards `/relay/…` to the relay, trusting its development CA (and nothing else), streaming both ways. */
function proxyToRelay(req: IncomingMessage, res: ServerResponse, relay: DemoRelay): void {
  const target = new URL((req.url ?? '/').slice(RELAY_PATH.length) || '/', relay.url);
  const headers = { ...req.headers, host: target.host };
  const out = httpsRequest(target, { method: req.method, headers, ca: relay.caPem, agent: false }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  out.on('error', (error) => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end(`relay unreachable: ${error.message}`);
  });
  res.on('close', () => out.destroy());
  req.pipe(out);
}

/** Bytes that do not compress or repeat, so a wrong offset or a lost block shows in the comparison. */
export function randomBytes(size: number, seed = 1): Buffer {
  const out = Buffer.alloc(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}
