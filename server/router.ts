/** The one route table: method + path pattern → handler. Feature modules add routes with `registerRoutes`-style functions. */
import type { ApiRequest, ApiResponse } from './api-request.ts';
import type { RouteContext } from './context.ts';
import type { Service } from './service-types.ts';
import type { FieldSchema } from 'store-upload-kit/protocol';

/** An endpoint implementation. */
export type Handler = (ctx: RouteContext) => Promise<ApiResponse>;

/** Per-route options. */
export interface RouteOptions {
  /**
   * When true, dispatch does not require a valid `Authorization` before calling the handler (the handler calls
   * `ctx.user()` itself when it needs one): resumable session URIs are capabilities, admin routes are local.
   * A predicate makes only some requests of the route public (the upload paths: only those naming a session),
   * so every other request is authenticated before any of its parameters is looked at.
   */
  readonly public?: boolean | ((req: ApiRequest) => boolean);
  /**
   * The schema of the data this route answers with. Dispatch checks the request's `fields` against it before the
   * handler runs, so a bad selection is a 400 with no side effect (no file created, no bytes stored) rather than
   * a 400 that follows a committed change the client then retries.
   */
  readonly schema?: FieldSchema;
}

interface Route {
  readonly method: string;
  readonly pattern: string;
  readonly segments: readonly string[];
  readonly literals: number;
  readonly handler: Handler;
  readonly options: RouteOptions;
}

/** Result of {@link Router.match}. */
export type RouteMatch =
  | {
      readonly kind: 'found';
      readonly handler: Handler;
      readonly options: RouteOptions;
      readonly params: Record<string, string>;
    }
  | { readonly kind: 'wrongMethod'; readonly allow: readonly string[] }
  | { readonly kind: 'none' };

/** Thrown by {@link Router.match} for a path segment that is not valid percent-encoding. */
export class BadPathError extends Error {}

/** Route table. Patterns are `/a/b/:param`; a literal segment beats a parameter at the same place. */
export class Router {
  readonly #routes: Route[] = [];

  /** Adds a route; `method` is upper-case (`GET` also answers `HEAD`). */
  add(method: string, pattern: string, handler: Handler, options: RouteOptions = {}): void {
    const segments = pattern.split('/').filter((s) => s !== '');
    const dup = this.#routes.find((r) => r.method === method && r.pattern === pattern);
    if (dup) throw new Error(`route ${method} ${pattern} is registered twice`);
    this.#routes.push({
      method,
      pattern,
      segments,
      literals: segments.filter((s) => !s.startsWith(':')).length,
      handler,
      options,
    });
  }

  /** Finds the route for a request. */
  match(method: string, path: string): RouteMatch {
    const parts = path.split('/').filter((s) => s !== '');
    let bestScore = -1;
    let candidates: { route: Route; params: Record<string, string> }[] = [];
    for (const route of this.#routes) {
      const params = matchSegments(route.segments, parts);
      if (!params) continue;
      const score = route.literals;
      if (score > bestScore) {
        bestScore = score;
        candidates = [];
      }
      if (score === bestScore) candidates.push({ route, params });
    }
    if (candidates.length === 0) return { kind: 'none' };
    const want = method === 'HEAD' ? 'GET' : method;
    const hit = candidates.find((c) => c.route.method === want);
    if (!hit) return { kind: 'wrongMethod', allow: [...new Set(candidates.map((c) => c.route.method))].sort() };
    return { kind: 'found', handler: hit.route.handler, options: hit.route.options, params: hit.params };
  }
}

function matchSegments(pattern: readonly string[], parts: readonly string[]): Record<string, string> | undefined {
  if (pattern.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i];
    const raw = parts[i];
    if (p.startsWith(':')) {
      try {
        params[p.slice(1)] = decodeURIComponent(raw);
      } catch {
        throw new BadPathError(`The path segment "${raw}" is not valid percent-encoding.`);
      }
    } else if (p !== raw) return undefined;
  }
  return params;
}

/** Re-exported for handler files. */
export type { ApiRequest, ApiResponse };

/** A function that adds a feature's routes (and may subscribe to events or add close hooks). */
export type RouteModule = (router: Router, svc: Service) => void;
