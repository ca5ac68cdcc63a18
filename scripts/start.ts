/**
 * `npm start`: the reference service (port 8080 or the next free one, data in `.store-data`, admin routes on), the
 * push relay when `server/relay/` exists, and the demo pages on Vite's dev server; then prints where everything
 * is. Ctrl-C stops it all.
 *
 * The page reaches the relay through the dev server (`/relay` is proxied), so the browser never has to trust the
 * relay's development certificate; the service posts to the relay directly and trusts its CA through a config
 * file written here.
 *
 * `npm start -- --https`: the service serves HTTPS with HTTP/2 (and HTTP/1.1) on a certificate from a development
 * CA kept in `.store-data/tls/`; a browser must trust that CA (or be started with `--ignore-certificate-errors`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { join, resolve } from 'node:path';
import { createServer as createViteServer, type Plugin, type ViteDevServer } from 'vite';

const ROOT = resolve(import.meta.dirname, '..');
const DATA_DIR = join(ROOT, '.store-data');
const TOKEN = 'dev-token-alice';
const RELAY_PATH = '/relay';
const READY_TIMEOUT_MS = 60_000;
const HTTPS = process.argv.slice(2).includes('--https');

/** A child process that printed its ready line. */
interface Started {
  child: ChildProcess;
  /** The ready line's first capture group. */
  value: string;
  /** Resolves with the first capture group of the first stdout line (so far or later) matching `pattern`. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<string | undefined>;
}

const children: ChildProcess[] = [];
let vite: ViteDevServer | undefined;
let stopping = false;

/** The first free TCP port from `first` on (a few tries), so a second checkout or a busy 8080 still starts. */
async function freePort(first: number, host: string): Promise<number> {
  for (let port = first; port < first + 50; port++) {
    const free = await new Promise<boolean>((done) => {
      const probe = createNetServer();
      probe.once('error', () => done(false));
      probe.listen(port, host, () => probe.close(() => done(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port from ${first} to ${first + 49} on ${host}`);
}

/** Spawns `node <bin> <args>` and resolves once a stdout line matches `ready`. */
function startChild(name: string, bin: string, args: string[], ready: RegExp): Promise<Started> {
  const child = spawn(process.execPath, [join(ROOT, bin), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(`[${name}] ${chunk.toString()}`));
  const lines: string[] = [];
  const lineListeners = new Set<(line: string) => void>();
  const waitFor = (pattern: RegExp, timeoutMs: number): Promise<string | undefined> =>
    new Promise((done) => {
      const seen = lines.map((l) => pattern.exec(l)).find(Boolean);
      if (seen) return done(seen[1] ?? '');
      const timer = setTimeout(() => {
        lineListeners.delete(listener);
        done(undefined);
      }, timeoutMs);
      const listener = (line: string): void => {
        const match = pattern.exec(line);
        if (!match) return;
        clearTimeout(timer);
        lineListeners.delete(listener);
        done(match[1] ?? '');
      };
      lineListeners.add(listener);
    });
  return new Promise<Started>((resolveStart, reject) => {
    let buffer = '';
    let started = false;
    const timer = setTimeout(
      () => reject(new Error(`${name} did not start within ${READY_TIMEOUT_MS / 1000} s`)),
      READY_TIMEOUT_MS,
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline).trimEnd();
        buffer = buffer.slice(newline + 1);
        lines.push(line);
        for (const listener of [...lineListeners]) listener(line);
        if (started) continue;
        const match = ready.exec(line);
        if (match) {
          started = true;
          clearTimeout(timer);
          resolveStart({ child, value: match[1] ?? '', waitFor });
        }
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (!started) reject(new Error(`${name} exited before it was ready (${signal ?? `code ${code}`})`));
      else if (!stopping) {
        console.error(`${name} stopped unexpectedly (${signal ?? `code ${code}`}); stopping the rest.`);
        void stopAll(1);
      }
    });
  });
}

/** Starts the relay and writes the service config that trusts it; undefined when the relay is not there yet. */
async function startRelay(): Promise<{ url: string; configPath: string } | undefined> {
  if (!existsSync(join(ROOT, 'server/relay/cli.ts')) || !existsSync(join(ROOT, 'bin/store-relay.js'))) return undefined;
  const port = await freePort(8443, '127.0.0.1');
  const relay = await startChild(
    'store-relay',
    'bin/store-relay.js',
    ['--port', String(port), '--cert-dir', join(DATA_DIR, 'relay-certs')],
    /store-relay listening on (\S+)/,
  );
  // The relay names its CA on the line after the ready line.
  const caPath = (await relay.waitFor(/^CA certificate[^:]*: (.+)$/, 5_000)) ?? join(DATA_DIR, 'relay-certs', 'ca.pem');
  const configPath = join(DATA_DIR, 'demo-service-config.json');
  writeFileSync(
    configPath,
    JSON.stringify({ verifiedDomains: [relay.value], registeredDomains: [relay.value], trustCa: [caPath] }, null, 2) +
      '\n',
  );
  return { url: relay.value, configPath };
}

/** Puts the service address, token and relay path into every demo page, so no query string is needed. */
function injectConfig(config: { serviceUrl: string; token: string; relayUrl: string }): Plugin {
  const block = `<script type="application/json" id="store-demo-config">${JSON.stringify(config).replace(/</g, '\\u003c')}</script>`;
  return { name: 'store-demo-config', transformIndexHtml: (html) => html.replace('</head>', `  ${block}\n  </head>`) };
}

async function stopAll(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  await vite?.close().catch(() => undefined);
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done();
          const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
          child.once('exit', () => {
            clearTimeout(force);
            done();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
  process.exit(code);
}

async function main(): Promise<void> {
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));
  mkdirSync(DATA_DIR, { recursive: true });

  const relay = await startRelay();
  const servicePort = await freePort(8080, '127.0.0.1');
  const service = await startChild(
    'store-service',
    'bin/store-service.js',
    [
      '--port',
      String(servicePort),
      '--data',
      DATA_DIR,
      '--admin',
      ...(relay ? ['--config', relay.configPath] : []),
      ...(HTTPS ? ['--https'] : []),
    ],
    /store-service listening on (\S+)/,
  );
  const serviceUrl = service.value;
  const serviceCa = HTTPS ? await service.waitFor(/^CA certificate[^:]*: (.+)$/, 5_000) : undefined;

  vite = await createViteServer({
    configFile: join(ROOT, 'vite.demo.config.ts'),
    server: {
      port: await freePort(5173, '127.0.0.1'),
      strictPort: false,
      ...(relay && {
        proxy: {
          [RELAY_PATH]: {
            target: relay.url,
            secure: false,
            changeOrigin: true,
            rewrite: (path: string) => path.slice(RELAY_PATH.length) || '/',
          },
        },
      }),
    },
    plugins: [injectConfig({ serviceUrl, token: TOKEN, relayUrl: relay ? RELAY_PATH : '' })],
  });
  await vite.listen();
  const demoUrl = vite.resolvedUrls?.local[0] ?? `http://127.0.0.1:${vite.config.server.port}/`;

  console.log(`
  store-upload-kit is running.

  Demo site      ${demoUrl}          (pages: ${demoUrl}files.html, ${demoUrl}about.html; uploads go on across them)
                 React: ${demoUrl}react/   Vue: ${demoUrl}vue/
  Service        ${serviceUrl}    data in .store-data/, admin routes on${serviceCa ? `\n  Service CA     ${serviceCa}   (HTTP/2 and HTTP/1.1; trust this CA in the browser, or start it with --ignore-certificate-errors)` : ''}
  Relay          ${relay ? `${relay.url} (the page reaches it through ${RELAY_PATH} on the demo server)` : 'not running (server/relay/ is not there yet): no live feed'}
  Dev token      ${TOKEN}   (also dev-token-bob)

  Create a file from a terminal and watch it appear in the demo's list and live feed:

    curl${serviceCa ? ` --cacert '${serviceCa}'` : ''} -X POST '${serviceUrl}/upload/store/v3/files?uploadType=media' \\
      -H 'Authorization: Bearer ${TOKEN}' -H 'Content-Type: text/plain' --data-binary 'hello from curl'

  Ctrl-C stops everything.
`);
}

main().catch((error: unknown) => {
  console.error(`npm start: ${(error as Error).message ?? error}`);
  void stopAll(1);
});
