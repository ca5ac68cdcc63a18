/**
 * Where the service sits in an app: below a base path, at the app's origin. Turns an app's request (a Node one,
 * whichever framework passed it on, or a Fetch `Request`) into the service's path and the base of the URLs the
 * service answers with, so a session's `Location` points back through the app.
 */
import type { IncomingMessage } from 'node:http';
import type { RequestTarget } from '../http/node-adapter.ts';
import { requestOrigin } from '../http/transport.ts';

/** `/api/store` from `api/store/`, `/api/store` or `/api/store/`; `''` for the root. */
export function normalizeBasePath(basePath: string): string {
  const trimmed = basePath.trim().replace(/\/+$/, '');
  if (trimmed === '') return '';
  if (/[?#]/.test(trimmed)) throw new Error(`basePath must be a path without a query or a fragment; got "${basePath}"`);
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/** The first value of a header a proxy may have sent several times (`X-Forwarded-Host: a, b`). */
function firstValue(value: string | string[] | null | undefined): string | undefined {
  const joined = Array.isArray(value) ? value.join(',') : value;
  const first = joined?.split(',')[0]?.trim();
  return first === undefined || first === '' ? undefined : first;
}

/** The request's path and query below `basePath`, or undefined when it is not the service's. */
function belowBase(basePath: string, pathAndQuery: string): string | undefined {
  if (basePath === '') return pathAndQuery;
  if (!pathAndQuery.startsWith(basePath)) return undefined;
  const rest = pathAndQuery.slice(basePath.length);
  return rest === '' || rest.startsWith('/') || rest.startsWith('?') ? rest || '/' : undefined;
}

/** `scheme://host` as a trusted proxy says the client used them; the app's own for what the proxy did not say. */
function forwarded(
  proto: string | string[] | null | undefined,
  host: string | string[] | null | undefined,
  own: URL,
): string {
  const scheme = firstValue(proto)?.toLowerCase();
  const name = firstValue(host);
  return `${scheme === 'https' || scheme === 'http' ? scheme : own.protocol.slice(0, -1)}://${name ?? own.host}`;
}

/**
 * `scheme://HOST` for the `Host` a client sent, or `fallback` without one or for one that is not a host: a header
 * from the network, which must neither throw nor point a `Location` at a path, a query or credentials.
 */
function namedOrigin(scheme: string, host: string | null | undefined, fallback: URL): URL {
  if (!host || /[/?#@\\\s]/.test(host)) return fallback;
  try {
    return new URL(`${scheme}//${host}`);
  } catch {
    return fallback;
  }
}

/** Locates a Node request (Express's `originalUrl` when it was mounted on a path of its own). */
export function locateNode(req: IncomingMessage, basePath: string, trustProxy: boolean): RequestTarget | undefined {
  const fullPath = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '/';
  const url = belowBase(basePath, fullPath);
  if (url === undefined) return undefined;
  const claimed = requestOrigin(req);
  const scheme = claimed?.startsWith('https:') ? 'https:' : 'http:';
  const own = namedOrigin(scheme, claimed?.slice(scheme.length + 2), new URL(`${scheme}//localhost`));
  const origin = trustProxy
    ? forwarded(req.headers['x-forwarded-proto'], req.headers['x-forwarded-host'], own)
    : own.origin;
  return { url, baseUrl: origin + basePath };
}

/**
 * Locates a Fetch request. Its origin is the one the client named in `Host`, as the Node form's: a server-side
 * `Request` carries that header, while its URL may be built from the server's own name (`next start` makes it
 * `http://localhost:PORT/…` whatever the browser asked for, and a `Location` there is another origin to the page,
 * one its cookies do not go to).
 */
export function locateFetch(request: Request, basePath: string, trustProxy: boolean): RequestTarget | undefined {
  const own = new URL(request.url);
  const named = namedOrigin(own.protocol, request.headers.get('host'), own);
  const fullPath = own.pathname + own.search;
  const url = belowBase(basePath, fullPath);
  if (url === undefined) return undefined;
  const origin = trustProxy
    ? forwarded(request.headers.get('x-forwarded-proto'), request.headers.get('x-forwarded-host'), named)
    : named.origin;
  return { url, baseUrl: origin + basePath };
}
