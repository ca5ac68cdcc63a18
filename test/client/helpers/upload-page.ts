// Serves the built browser bundle (`npx vite build` → dist/browser/) and a bare page that loads it with one
// <script type="module"> — the plain-page way to use the kit — for Playwright specs and the browser benchmark.
// The page exposes `window.kit = { uploader, createUploader, tasks, snapshot }`; `?service=` is the service URL and
// `?options=` a JSON object of `createUploader` options. The page's script is a file of its own (no inline script),
// so `startUploadPage({ csp: true })` can serve everything under a strict Content-Security-Policy and collect the
// violation reports the browser sends (a violation inside a worker is heard only that way).
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';

const BUNDLE_DIR = resolve(import.meta.dirname, '../../../dist/browser');

const PAGE = `<!doctype html>
<html lang="en"><meta charset="utf-8"><title>uploader page</title>
<input type="file" id="file" multiple>
<script type="module" src="./page.js"></script>
</html>`;

const PAGE_SCRIPT = `
  import * as kitModule from './dist/browser/store-upload-kit.js';
  const params = new URLSearchParams(location.search);
  const options = JSON.parse(params.get('options') || '{}');
  const uploader = kitModule.createUploader({ baseUrl: params.get('service'), getAccessToken: () => 'dev-token-alice', ...options });
  const kit = { module: kitModule, uploader, tasks: [], snapshot: uploader.snapshot, results: [] };
  uploader.addEventListener('change', (e) => (kit.snapshot = e.detail));
  document.getElementById('file').addEventListener('change', (e) => {
    for (const file of e.target.files) {
      const task = uploader.add(file);
      kit.tasks.push(task);
      task.done.then((f) => kit.results.push({ ok: true, file: f }), (error) => kit.results.push({ ok: false, code: error.code, message: error.message }));
    }
  });
  window.kit = kit;
`;

/** The policy of issue 12: nothing inline, no eval, no WebAssembly compilation; the service's origin may be called. */
export function strictCsp(serviceOrigin: string, reportUri: string): string {
  return `default-src 'self'; script-src 'self'; style-src 'self'; worker-src 'self'; connect-src 'self' ${serviceOrigin}; report-uri ${reportUri}`;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json',
  '.wasm': 'application/wasm',
  '.css': 'text/css',
};

export interface UploadPage {
  origin: string;
  /** CSP violation reports received (`csp-report` bodies), when started with `csp: true`. */
  reports: Record<string, unknown>[];
  /** The page, pointed at `service`, with `createUploader` options. */
  url(service: string, options?: object): string;
  stop(): Promise<void>;
}

/** Starts the page server; fails clearly when the bundle was not built. */
export async function startUploadPage(options: { csp?: boolean } = {}): Promise<UploadPage> {
  if (!existsSync(join(BUNDLE_DIR, 'store-upload-kit.js')))
    throw new Error(`No bundle in ${BUNDLE_DIR}: run npx vite build first`);
  const reports: Record<string, unknown>[] = [];
  let origin = '';
  /** The page's service, remembered from the page's URL: the policy names its origin in `connect-src`. */
  let serviceOrigin = '';
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = normalize(decodeURIComponent(url.pathname));
    if (path === '/__csp-report') {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        try {
          reports.push(
            (JSON.parse(body) as { 'csp-report'?: Record<string, unknown> })['csp-report'] ?? JSON.parse(body),
          );
        } catch {
          reports.push({ unreadable: body });
        }
        res.writeHead(204).end();
      });
      return;
    }
    if (path === '/' && url.searchParams.get('service'))
      serviceOrigin = new URL(url.searchParams.get('service')!).origin;
    // Every response carries the policy: a worker's policy comes with its own script.
    const csp = options.csp ? { 'content-security-policy': strictCsp(serviceOrigin, `${origin}/__csp-report`) } : {};
    if (path === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...csp }).end(PAGE);
      return;
    }
    if (path === '/page.js') {
      res
        .writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store', ...csp })
        .end(PAGE_SCRIPT);
      return;
    }
    const file = join(BUNDLE_DIR, path.replace(/^\/dist\/browser\//, '/'));
    if (
      !path.startsWith('/dist/browser/') ||
      !file.startsWith(BUNDLE_DIR) ||
      !existsSync(file) ||
      !statSync(file).isFile()
    ) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${path}`);
      return;
    }
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-store',
      ...csp,
    });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    reports,
    url: (service, options = {}) =>
      `${origin}/?service=${encodeURIComponent(service)}&options=${encodeURIComponent(JSON.stringify(options))}`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
