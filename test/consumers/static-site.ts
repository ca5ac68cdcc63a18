/**
 * A folder served as static files on a free loopback port: the consumers' apps that build to plain files, and the
 * built Storybook (test/e2e/storybook-server.ts).
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.json': 'application/json',
  '.map': 'application/json',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
};

/** The running site: its base URL (no trailing slash) and how to stop it. */
export interface StaticSite {
  readonly url: string;
  stop(): Promise<void>;
}

/** How a site is served: `immutable` matches the paths of files whose names carry a hash of their content. */
export interface StaticSiteOptions {
  immutable?: RegExp;
}

/**
 * Serves the files under `dir` (a folder's `index.html` for a path ending in `/`); anything else is a 404, but for
 * `/favicon.ico`, which pages that link no icon make Chromium ask for: a 204. Files matching `options.immutable` may
 * be kept for a year, as a host serves a build's hashed files: a page opened again takes them from the browser's
 * cache instead of loading and compiling megabytes of scripts once more.
 */
export async function startStaticSite(dir: string, options: StaticSiteOptions = {}): Promise<StaticSite> {
  const root = resolve(dir);
  const site = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    if (path === '/favicon.ico') return void res.writeHead(204).end();
    const file = join(root, path.endsWith('/') ? `${path}index.html` : path);
    if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) return void res.writeHead(404).end();
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      ...(options.immutable?.test(path) ? { 'cache-control': 'public, max-age=31536000, immutable' } : {}),
    });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((done) => site.listen(0, '127.0.0.1', done));
  const address = site.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    stop: () => new Promise<void>((done) => site.close(() => done())),
  };
}
