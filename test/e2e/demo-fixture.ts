/**
 * What the demo specs share: a real `store-service` (port 0, temp data dir, `--admin`, via the server tests'
 * helper), the built demos (`npm run build:demos` → `dist/demos/`) served by a small static server, and the page URL
 * that points a demo at that service.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';

/** Where `npm run build:demos` writes (override with DEMOS_DIR). */
export const DEMOS_DIR = resolve(process.env['DEMOS_DIR'] ?? 'dist/demos');

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
  /** URL of a demo page (`''`, `'react/'`, `'vue/'`) pointed at the service. */
  pageUrl(page?: '' | 'react/' | 'vue/'): string;
  stop(): Promise<void>;
}

/** Starts the service and serves the built demos; fails clearly when they were not built. */
export async function startDemoFixture(): Promise<DemoFixture> {
  if (!existsSync(join(DEMOS_DIR, 'index.html'))) throw new Error(`No built demos in ${DEMOS_DIR}: run npm run build:demos first`);
  const service = await startService();
  const server = serveDirectory(DEMOS_DIR);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    service,
    origin,
    pageUrl: (page = '') => `${origin}/${page}?service=${encodeURIComponent(service.url)}&token=dev-token-alice`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      await service.stop();
    },
  };
}

function serveDirectory(dir: string): Server {
  return createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = join(dir, path.endsWith('/') ? `${path}index.html` : path);
    if (!file.startsWith(dir) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${path}`);
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    createReadStream(file).pipe(res);
  });
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
