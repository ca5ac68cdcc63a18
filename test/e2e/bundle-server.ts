/**
 * A loopback server for specs that load the self-contained browser bundle (`npm run build:browser` → `dist/browser/`,
 * or ELEMENTS_BUNDLE_DIR) under `/kit/`, with each spec's own routes tried first.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import {
  createServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';

export const BUNDLE_DIR = resolve(process.env['ELEMENTS_BUNDLE_DIR'] ?? 'dist/browser');
const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
  '.map': 'application/json',
};

/** A running bundle server. */
export interface BundleServer {
  origin: string;
  close(): Promise<void>;
}

/**
 * Starts the server. `route` answers what it knows (returns true) before the bundle's files are looked up;
 * `headers` are added to every bundle file (a Content-Security-Policy, say).
 */
export async function startBundleServer(
  route: (req: IncomingMessage, res: ServerResponse, path: string) => boolean,
  headers: () => OutgoingHttpHeaders = () => ({}),
): Promise<BundleServer> {
  if (!existsSync(join(BUNDLE_DIR, 'store-upload-kit.js')))
    throw new Error(`No browser bundle in ${BUNDLE_DIR}: run npm run build:browser`);
  const server: Server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(
      /^(\.\.[/\\])+/,
      '',
    );
    if (route(req, res, path)) return;
    const file = join(BUNDLE_DIR, path.replace(/^\/kit\//, '/'));
    if (!path.startsWith('/kit/') || !file.startsWith(BUNDLE_DIR) || !existsSync(file) || !statSync(file).isFile()) {
      return void res.writeHead(404).end();
    }
    res.writeHead(200, { ...headers(), 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  return {
    origin: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
