// Serves the built browser bundle (`npx vite build` → dist/browser/) and a bare page that loads it with one
// <script type="module"> — the plain-page way to use the kit — for Playwright specs and the browser benchmark.
// The page exposes `window.kit = { uploader, createUploader, tasks, snapshot }`; `?service=` is the service URL and
// `?options=` a JSON object of `createUploader` options.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';

const BUNDLE_DIR = resolve(import.meta.dirname, '../../../dist/browser');

const PAGE = `<!doctype html>
<html lang="en"><meta charset="utf-8"><title>uploader page</title>
<input type="file" id="file" multiple>
<script type="module">
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
</script>
</html>`;

const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.map': 'application/json', '.wasm': 'application/wasm', '.css': 'text/css' };

export interface UploadPage {
  origin: string;
  /** The page, pointed at `service`, with `createUploader` options. */
  url(service: string, options?: object): string;
  stop(): Promise<void>;
}

/** Starts the page server; fails clearly when the bundle was not built. */
export async function startUploadPage(): Promise<UploadPage> {
  if (!existsSync(join(BUNDLE_DIR, 'store-upload-kit.js'))) throw new Error(`No bundle in ${BUNDLE_DIR}: run npx vite build first`);
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    if (path === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(PAGE);
      return;
    }
    const file = join(BUNDLE_DIR, path.replace(/^\/dist\/browser\//, '/'));
    if (!path.startsWith('/dist/browser/') || !file.startsWith(BUNDLE_DIR) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${path}`);
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (service, options = {}) => `${origin}/?service=${encodeURIComponent(service)}&options=${encodeURIComponent(JSON.stringify(options))}`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
