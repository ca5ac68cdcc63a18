/** A loopback server for the built Storybook (`npm run build-storybook` → `storybook-static/`, or STORYBOOK_DIR). */
import { test } from '@playwright/test';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';

export const STORYBOOK_DIR = process.env['STORYBOOK_DIR'] ?? 'storybook-static';
const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.json': 'application/json',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
};

/** Serves the built Storybook; returns its origin and a `close`. */
async function startStorybookServer(): Promise<{ origin: string; close(): Promise<void> }> {
  if (!existsSync(join(STORYBOOK_DIR, 'index.json')))
    throw new Error(`No built Storybook in ${STORYBOOK_DIR}: run npm run build-storybook`);
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(
      /^(\.\.[/\\])+/,
      '',
    );
    // iframe.html links no icon, so Chromium asks for /favicon.ico; that 404 is not the stories' fault.
    if (path === '/favicon.ico') return void res.writeHead(204).end();
    const file = join(STORYBOOK_DIR, path.endsWith('/') ? `${path}index.html` : path);
    if (!existsSync(file) || !statSync(file).isFile()) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    origin: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Serves the built Storybook for the tests of one spec file (started before them, closed after); `origin()` is its address. */
export function serveStorybookForSpec(): { origin(): string } {
  let server: { origin: string; close(): Promise<void> } | undefined;
  test.beforeAll(async () => {
    server = await startStorybookServer();
  });
  test.afterAll(() => server?.close());
  return { origin: () => server!.origin };
}
