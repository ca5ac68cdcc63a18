/**
 * Starts a real `store-service` child process for a test (port 0, temp data dir, `--admin`) and talks to it
 * over real HTTP. Every server test uses this; keep it small.
 *
 * ```ts
 * const svc = await startService();            // or startService({ config: {...} })
 * after(() => svc.stop());
 * const r = await svc.api('GET', '/store/v3/files');           // token defaults to dev-token-alice
 * const anon = await svc.api('GET', '/store/v3/files', { token: null });
 * r.status; r.headers['content-type']; r.body (Buffer); r.text; r.json()
 * ```
 *
 * `STORE_TEST_HTTP2=1` starts every service with `--https` and sends every request over HTTP/2 (the suites that do
 * not write raw HTTP/1.1 hold over both: `scripts/test-http2.sh`).
 *
 * `STORE_TEST_CONTENT=s3://BUCKET[/PREFIX]` (with the AWS variables; `test/cluster/on-object-store.ts` sets both)
 * keeps every service's content in that bucket, under a prefix of its own; `STORE_TEST_DATABASE` and
 * `STORE_TEST_NODES` do the same for the rows and the number of nodes (`test-database.ts`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { forgetOrigin, h2Request, trustCa } from './h2-request.ts';
import { startRoundRobinProxy } from './round-robin-proxy.ts';
import { contentFor, databaseFor, TEST_NODES } from './test-database.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const BIN = join(ROOT, 'bin/store-service.js');
/** Whether this run speaks HTTP/2 to the services it starts. */
export const OVER_HTTP2 = process.env.STORE_TEST_HTTP2 === '1';

/** Options of {@link startService}. */
export interface StartOptions {
  /** A config object (written to a temp file and passed as `--config`) or a path to a config file. */
  readonly config?: object | string;
  /** Reuse a data directory (default: a fresh temp dir, removed by `stop()`). */
  readonly dataDir?: string;
  /** Pass `--admin` (default true). */
  readonly admin?: boolean;
  /** Extra CLI arguments. */
  readonly args?: readonly string[];
  /** Nodes over shared backends (default: from the environment, `test-database.ts`): the cluster tests' own. */
  readonly cluster?: { readonly database: string; readonly content: string; readonly nodes: number };
  /** Flags for Node itself, before the service's (a bench's `--cpu-prof`, which NODE_OPTIONS refuses). */
  readonly nodeArgs?: readonly string[];
  /** The service's entry script (default `bin/store-service.js`): an earlier version's (`previous-version.ts`). */
  readonly entry?: string;
}

/** Options of {@link ServiceHandle.api}. */
export interface ApiOptions {
  /** Bearer token; default `dev-token-alice`; `null` sends no `Authorization`. */
  readonly token?: string | null;
  readonly headers?: Record<string, string>;
  /**
   * Request body: string/bytes as is; a Readable or async iterable is streamed (chunked unless you set
   * `content-length`); a plain object or array is sent as JSON (with `Content-Type: application/json`).
   */
  readonly body?: string | Uint8Array | Readable | AsyncIterable<Uint8Array> | object;
}

/** A response with the raw (never decompressed) body. */
export interface ApiResult {
  readonly status: number;
  /** Lower-case header names. */
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
  /** The body as UTF-8. */
  readonly text: string;
  /** The body parsed as JSON (throws if it is not). */
  json<T = any>(): T;
}

/** A running service child process. */
export interface ServiceHandle {
  /** `http://127.0.0.1:<port>` (kept across restarts). */
  readonly url: string;
  readonly dataDir: string;
  readonly pid: number;
  /** Sends a signal (default SIGTERM) and waits for the process to exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Starts the service again on the same data dir and port (after `kill`, or it sends SIGTERM first). */
  restart(): Promise<void>;
  /**
   * Kills the process and removes a temp data dir this helper created. Rejects when the service crashed: it
   * logged an uncaught exception or unhandled rejection, left a file handle for the garbage collector to close, or
   * exited without being asked to (the process guard).
   */
  stop(): Promise<void>;
  /** The crash seen so far (see `stop`), or undefined while the service is healthy. */
  readonly crash: Error | undefined;
  /** What the service has written to stderr so far, across restarts: the errors it logged and carried on from. */
  readonly stderr: string;
  /** With `STORE_TEST_NODES=N`: each node (this handle's `url` is their proxy's). */
  readonly nodes?: readonly ServiceHandle[];
  /** With `nodes`: the node that is handling a request `match` picks now (its proxy passes it on), if any. */
  nodeServing?(match: (request: { method: string; url: string }) => boolean): ServiceHandle | undefined;
  /** One HTTP request; `path` may carry a query or be an absolute URL (a session `Location`). */
  api(method: string, path: string, options?: ApiOptions): Promise<ApiResult>;
}

/** Sends one HTTP request (HTTP/2 to an `https:` URL) and collects the raw response. */
export function httpRequest(
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: ApiOptions['body'],
): Promise<ApiResult> {
  if (url.startsWith('https:')) {
    const sent =
      body === undefined ||
      typeof body === 'string' ||
      body instanceof Uint8Array ||
      body instanceof Readable ||
      Symbol.asyncIterator in body
        ? body
        : JSON.stringify(body);
    return h2Request(method, url, headers, sent as Parameters<typeof h2Request>[3]).then(
      ({ status, headers: h, body: buf }) => ({
        status,
        headers: h,
        body: buf,
        text: buf.toString('utf8'),
        json: () => JSON.parse(buf.toString('utf8')),
      }),
    );
  }
  return new Promise((resolvePromise, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const buf = Buffer.concat(chunks);
        resolvePromise({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: buf,
          text: buf.toString('utf8'),
          json: () => JSON.parse(buf.toString('utf8')),
        });
      });
    });
    req.on('error', reject);
    if (body === undefined) req.end();
    else if (typeof body === 'string' || body instanceof Uint8Array) req.end(body);
    else if (body instanceof Readable || Symbol.asyncIterator in body) {
      Readable.from(body as AsyncIterable<Uint8Array>)
        .on('error', reject)
        .pipe(req);
    } else req.end(JSON.stringify(body));
  });
}

/**
 * Starts `node bin/store-service.js --port 0 --data <dir> [--admin] [--config]` and waits for its URL — or, with
 * `STORE_TEST_NODES=N` (`test-database.ts`), N such nodes over one database and bucket behind a round-robin proxy,
 * whose handle acts on all of them (`nodes` has each).
 */
export async function startService(options: StartOptions = {}): Promise<ServiceHandle> {
  const ownDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'store-test-'));
  const backends = async () => {
    const database = options.cluster?.database ?? (await databaseFor(dataDir));
    const content = options.cluster?.content ?? contentFor(dataDir);
    return [...(database ? ['--database', database] : []), ...(content ? ['--content', content] : [])];
  };
  const count = options.cluster?.nodes ?? TEST_NODES;
  if (count <= 1) return startNode({ ...options, dataDir }, ownDir, await backends());
  const shared = await backends();
  const nodes: ServiceHandle[] = [];
  for (let i = 0; i < count; i++) {
    const nodeDir = join(dataDir, `node-${i}`);
    mkdirSync(nodeDir, { recursive: true });
    nodes.push(await startNode({ ...options, dataDir: nodeDir }, false, shared));
  }
  const proxy = await startRoundRobinProxy(() => nodes.map((n) => n.url));
  const first = nodes[0] as ServiceHandle;
  const handle: ServiceHandle = {
    url: proxy.url,
    dataDir,
    nodes,
    get pid() {
      return first.pid;
    },
    get crash() {
      return nodes.find((n) => n.crash)?.crash;
    },
    get stderr() {
      return nodes.map((n) => n.stderr).join('');
    },
    async kill(signal) {
      await Promise.all(nodes.map((n) => n.kill(signal)));
    },
    async restart() {
      for (const n of nodes) await n.restart();
    },
    async stop() {
      const results = await Promise.allSettled(nodes.map((n) => n.stop()));
      await proxy.close();
      if (ownDir) rmSync(dataDir, { recursive: true, force: true });
      const failed = results.find((r) => r.status === 'rejected');
      if (failed) throw (failed as PromiseRejectedResult).reason;
    },
    api(method, path, opts = {}) {
      return first.api(method, path.startsWith('http') ? path : proxy.url + path, opts);
    },
    nodeServing(match) {
      const found = [...proxy.live].find(match);
      return found && nodes[found.node];
    },
  };
  return handle;
}

/** Starts one node (see {@link startService}) with `backends`' flags. */
async function startNode(
  options: StartOptions & { readonly dataDir: string },
  ownDir: boolean,
  backends: readonly string[],
): Promise<ServiceHandle> {
  const { dataDir } = options;
  let configPath: string | undefined;
  if (typeof options.config === 'string') configPath = options.config;
  else if (options.config !== undefined) {
    configPath = join(dataDir, '..', `${dataDir.split('/').pop()}-config.json`);
    writeFileSync(configPath, JSON.stringify(options.config));
  }
  const args = [
    options.entry ?? BIN,
    '--port',
    '0',
    '--data',
    dataDir,
    ...(options.admin === false ? [] : ['--admin']),
    ...(OVER_HTTP2 ? ['--https'] : []),
  ];
  if (configPath) args.push('--config', configPath);
  args.push(...backends, ...(options.args ?? []));

  let child: ChildProcess;
  let url = '';
  let crash: Error | undefined;
  let stopping = false;
  let log = '';
  const crashed = (why: string) => {
    crash ??= new Error(`store-service crashed: ${why}`);
  };
  const launch = (port = '0') =>
    new Promise<void>((resolveLaunch, reject) => {
      args[2] = port;
      child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...args], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stderr?.on('data', (c: Buffer) => {
        err += c.toString();
        log += c.toString();
        process.stderr.write(c);
        const fatal = /store-service: FATAL .*|Unhandled.*rejection.*|uncaught.*exception.*/i.exec(err);
        if (fatal) crashed(fatal[0]);
        // A file handle nobody closed, found by the garbage collector: every handle must have an owner that closes it.
        const leaked = /Closing file descriptor \d+ on garbage collection/.exec(err);
        if (leaked) crashed(`a file handle was left open (${leaked[0]})`);
      });
      child.stdout?.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /store-service listening on (https?:\/\/\S+)/.exec(out);
        const ca = /CA certificate[^:]*: (.+)\n/.exec(out);
        if (m && !url && (!OVER_HTTP2 || ca)) {
          url = m[1];
          if (ca) trustCa(readFileSync(ca[1], 'utf8'));
          resolveLaunch();
        }
      });
      child.once('exit', (code) => {
        if (!url) reject(new Error(`store-service exited with ${code} before listening:\n${err}`));
      });
    });
  await launch();
  let exited = false;
  const watchExit = () =>
    child.once('exit', (code, signal) => {
      exited = true;
      if (!stopping) crashed(`the process exited by itself (code ${code}, signal ${signal})`);
    });
  watchExit();

  const handle: ServiceHandle = {
    get url() {
      return url;
    },
    dataDir,
    get pid() {
      return child.pid as number;
    },
    get crash() {
      return crash;
    },
    get stderr() {
      return log;
    },
    async kill(signal: NodeJS.Signals = 'SIGTERM') {
      if (url) forgetOrigin(new URL(url).origin);
      if (exited) return;
      stopping = true;
      const done = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill(signal);
      await done;
    },
    async restart() {
      await handle.kill('SIGTERM');
      // Same port, so session URIs (Location) handed out before the restart stay valid.
      const port = new URL(url).port;
      url = '';
      exited = false;
      stopping = false;
      await launch(port);
      watchExit();
    },
    async stop() {
      await handle.kill('SIGTERM');
      if (ownDir) rmSync(dataDir, { recursive: true, force: true });
      if (configPath && typeof options.config !== 'string') rmSync(configPath, { force: true });
      if (crash) throw crash;
    },
    api(method, path, opts = {}) {
      if (crash) return Promise.reject(crash);
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      const token = opts.token === undefined ? 'dev-token-alice' : opts.token;
      if (token !== null && !Object.keys(headers).some((k) => k.toLowerCase() === 'authorization'))
        headers.Authorization = `Bearer ${token}`;
      let body = opts.body;
      const isJson =
        body !== undefined &&
        typeof body === 'object' &&
        !(body instanceof Uint8Array) &&
        !(body instanceof Readable) &&
        !(Symbol.asyncIterator in body);
      if (isJson) {
        body = JSON.stringify(body);
        if (!Object.keys(headers).some((k) => k.toLowerCase() === 'content-type'))
          headers['Content-Type'] = 'application/json';
      }
      return httpRequest(method, path.startsWith('http') ? path : url + path, headers, body);
    },
  };
  return handle;
}
