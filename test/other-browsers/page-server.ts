/**
 * The static server of the smoke suite, on loopback: the built bundle (`npx vite build` → dist/browser/) and the
 * smoke page, under three prefixes that differ only in the Content-Security-Policy sent with every response (the
 * page, its scripts, the bundle's chunks and the worker, whose own policy comes from its script's response):
 * `/plain/` none, `/csp-wasm/` the strict policy plus `'wasm-unsafe-eval'`, `/csp-strict/` the strict policy alone.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const BUNDLE_DIR = join(ROOT, 'dist/browser');
const PAGE_DIR = join(import.meta.dirname, 'page');

/** The page: the error capture first (classic), then the harness module. No inline script or style. */
const PAGE = `<!doctype html>
<html lang="en"><meta charset="utf-8"><title>store-upload-kit smoke</title>
<script src="./capture.js"></script>
<script type="module" src="./harness.js"></script>
<body></body>
</html>`;

/** The policy of the issue (connect-src lets the page and worker reach the service on another loopback port). */
export function cspOf(wasm: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self'${wasm ? " 'wasm-unsafe-eval'" : ''}`,
    "style-src 'self'",
    "worker-src 'self'",
    "connect-src 'self' http://127.0.0.1:*",
  ].join('; ');
}

export type Variant = 'plain' | 'csp-wasm' | 'csp-strict';
const POLICIES: Record<Variant, string | undefined> = {
  plain: undefined,
  'csp-wasm': cspOf(true),
  'csp-strict': cspOf(false),
};

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json',
  '.wasm': 'application/wasm',
  '.css': 'text/css',
  '.html': 'text/html; charset=utf-8',
};

export interface PageServer {
  /** The smoke page of a variant, pointed at the service. */
  url(variant: Variant, service: string): string;
  stop(): Promise<void>;
}

export async function startPageServer(): Promise<PageServer> {
  if (!existsSync(join(BUNDLE_DIR, 'store-upload-kit.js')))
    throw new Error(`No bundle in ${BUNDLE_DIR}: run npx vite build first`);
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    const [, variant = '', ...rest] = path.split('/');
    const inside = rest.join('/');
    if (!(variant in POLICIES)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${path}`);
      return;
    }
    const headers: Record<string, string> = { 'cache-control': 'no-store' };
    const policy = POLICIES[variant as Variant];
    if (policy) headers['content-security-policy'] = policy;
    if (inside === '' || inside === 'index.html') {
      res.writeHead(200, { ...headers, 'content-type': TYPES['.html'] }).end(PAGE);
      return;
    }
    const file = inside.startsWith('dist/browser/')
      ? join(BUNDLE_DIR, inside.slice('dist/browser/'.length))
      : join(PAGE_DIR, inside);
    const base = inside.startsWith('dist/browser/') ? BUNDLE_DIR : PAGE_DIR;
    if (!file.startsWith(base + '/') || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { ...headers, 'content-type': 'text/plain' }).end(`not found: ${path}`);
      return;
    }
    res.writeHead(200, { ...headers, 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: (variant, service) => `${origin}/${variant}/?service=${encodeURIComponent(service)}`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
