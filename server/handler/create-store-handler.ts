/**
 * The service inside an app's own server: the same service as `store-service` (the same dispatch, stores and
 * answers), mounted below a base path, as a Node `(req, res, next)` handler (node:http, Express, Fastify's raw
 * request) and as a Fetch handler (Next.js route handlers, Hono, Bun), with the app's own sign-in as an option.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { JSON_CONTENT_TYPE, errorBody } from 'store-upload-kit/protocol';
import { defaultConfig, type ServiceConfig } from '../config.ts';
import { createFetchListener } from '../http/fetch-adapter.ts';
import { createListener, type RequestTarget } from '../http/node-adapter.ts';
import { createService } from '../service.ts';
import type { Service } from '../service-types.ts';
import { appAuthenticator, type AppAuthenticate } from './app-sign-in.ts';
import { locateFetch, locateNode, normalizeBasePath } from './mount.ts';

/** How to create a {@link StoreHandler}. */
export interface StoreHandlerOptions {
  /** The folder the service keeps its database, files and sessions in (created when missing). */
  readonly dataDir: string;
  /** Settings over the service's defaults (the same keys as `store-service --config`'s file). */
  readonly config?: Partial<ServiceConfig>;
  /** The path the service's API lives below (`/store/v3/…`, `/upload/store/v3/…`, `/batch/store/v3`); default `/api/store`. */
  readonly basePath?: string;
  /**
   * The app's own sign-in (its session cookie, its JWT). When given, it replaces the bearer tokens: a call it
   * names no user for is answered 401. Without it, the service checks `config.tokens` (by default the
   * development tokens: give `authenticate` in anything but development).
   */
  readonly authenticate?: AppAuthenticate;
  /** Builds URLs from `X-Forwarded-Proto` and `X-Forwarded-Host` (only behind a proxy that sets them); default false. */
  readonly trustProxy?: boolean;
  /** Enables `/__admin/*` (clock, faults, tokens) below the base path, for tests; default false. */
  readonly admin?: boolean;
  /**
   * The rows in PostgreSQL (`postgres://USER:PASS@HOST:PORT/DB`) instead of the data folder's SQLite, as
   * `store-service --database`; with `config.content: 's3://BUCKET[/PREFIX]'` (as `--content`) the content is in an
   * object store too, and any number of app servers can mount the service over them (server/README.md, "Run it on
   * more than one machine").
   */
  readonly database?: string;
}

/** The service, mounted. */
export interface StoreHandler {
  /**
   * A Node handler. A request outside the base path goes to `next` when given (Express, Connect), else gets 404.
   * Mount it before any body parser: a request whose body was already read is answered 500, saying so.
   */
  node(req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): void;
  /** A Fetch handler: a `Request` in, a `Response` out, both bodies streamed. */
  fetch(request: Request): Promise<Response>;
  /** The service itself (its stores, its events). */
  readonly service: Service;
  /** Closes the service (its database, timers, outgoing push). The app stops answering through it first. */
  close(): Promise<void>;
}

function jsonError(status: number, reason: string, message: string): { status: number; body: string } {
  return { status, body: JSON.stringify(errorBody(status, reason, message)) };
}

/** A Node request whose body a body parser (`express.json()`, …) read before the service could. */
function bodyAlreadyRead(req: IncomingMessage): boolean {
  return req.readableDidRead || (req as IncomingMessage & { _body?: unknown })._body === true;
}

const CONSUMED =
  'The request body was read before the store handler got it: mount the handler before any body parser (express.json(), express.raw(), multer, …).';

/** Creates the service on `dataDir` and mounts it below `basePath`. */
export async function createStoreHandler(options: StoreHandlerOptions): Promise<StoreHandler> {
  const basePath = normalizeBasePath(options.basePath ?? '/api/store');
  const trustProxy = options.trustProxy ?? false;
  const service = await Promise.resolve(
    createService({
      dataDir: options.dataDir,
      config: { ...defaultConfig(), ...options.config },
      admin: options.admin ?? false,
      ...(options.database !== undefined ? { database: options.database } : {}),
      ...(options.authenticate ? { authenticator: appAuthenticator(options.authenticate, basePath) } : {}),
    }),
  );
  // Each request is located once, by `node` or `fetch` below, and only one below the base path reaches a listener.
  const targets = new WeakMap<object, RequestTarget>();
  const located = (req: object): RequestTarget => targets.get(req) ?? { url: '/', baseUrl: 'http://localhost' };
  const listener = createListener(service, () => 'http://localhost', located);
  const fetchListener = createFetchListener(service, located);
  return {
    service,
    node(req, res, next) {
      const target = locateNode(req, basePath, trustProxy);
      if (target === undefined) {
        if (next) {
          next();
          return;
        }
        const path = (req.url ?? '/').split('?')[0];
        const answer = jsonError(404, 'notFound', `No API endpoint at ${path}.`);
        res.writeHead(answer.status, { 'Content-Type': JSON_CONTENT_TYPE }).end(answer.body);
        return;
      }
      if (bodyAlreadyRead(req)) {
        const answer = jsonError(500, 'backendError', CONSUMED);
        res.writeHead(answer.status, { 'Content-Type': JSON_CONTENT_TYPE }).end(answer.body);
        return;
      }
      targets.set(req, target);
      listener(req, res);
    },
    async fetch(request) {
      const target = locateFetch(request, basePath, trustProxy);
      if (target === undefined) {
        const answer = jsonError(404, 'notFound', `No API endpoint at ${new URL(request.url).pathname}.`);
        return new Response(answer.body, { status: answer.status, headers: { 'Content-Type': JSON_CONTENT_TYPE } });
      }
      if (request.bodyUsed) {
        const answer = jsonError(500, 'backendError', CONSUMED);
        return new Response(answer.body, { status: answer.status, headers: { 'Content-Type': JSON_CONTENT_TYPE } });
      }
      targets.set(request, target);
      return fetchListener(request);
    },
    close: () => service.close(),
  };
}
