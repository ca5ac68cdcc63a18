/** What a handler gets: the request, path parameters, the service, and helpers for auth, JSON and `fields`. */
import { type FieldSchema, JSON_CONTENT_TYPE, strictJsonText } from 'store-upload-kit/protocol';
import { selectCachedFields } from './fields-cache.ts';
import { loginRequired } from './auth/authenticator.ts';
import type { Principal } from './access.ts';
import { ApiError } from './errors.ts';
import type { ApiRequest, ApiResponse } from './api-request.ts';
import type { Service } from './service-types.ts';

/** The per-call context of a handler. */
export interface RouteContext {
  readonly req: ApiRequest;
  /** Decoded path parameters (`:fileId` → `params.fileId`). */
  readonly params: Readonly<Record<string, string>>;
  readonly svc: Service;
  /** The caller dispatch authenticated; throws 401 `required` on a public route, where nobody was asked. */
  user(): Principal;
  /** Reads the body as JSON (buffered, capped); `undefined` for an empty body. Throws 400 for bad JSON. */
  readJson(): Promise<unknown>;
  /**
   * A JSON answer of data, filtered by the request's `fields` (or `selection` when given, e.g. the one saved at a
   * resumable session's start). A bad selection throws `FieldsError`, which dispatch turns into 400.
   */
  json(status: number, value: unknown, schema: FieldSchema, selection?: string | null): ApiResponse;
}

/** Builds a {@link RouteContext} for a caller already authenticated (undefined on a public route). */
export function createContext(
  req: ApiRequest,
  params: Record<string, string>,
  svc: Service,
  principal: Principal | undefined,
): RouteContext {
  return {
    req,
    params,
    svc,
    user() {
      if (!principal) throw loginRequired();
      return principal;
    },
    readJson: () => readJsonBody(req, svc.config.maxJsonBytes),
    json(status, value, schema, selection) {
      const sel = selection === undefined ? req.query.get('fields') : selection;
      const data = sel !== null && sel !== '' ? selectCachedFields(value, sel, schema) : value;
      return jsonResponse(status, data);
    },
  };
}

/** A JSON answer without `fields` filtering (error bodies, admin). */
export function jsonResponse(status: number, value: unknown, headers: Record<string, string> = {}): ApiResponse {
  return { status, headers: { 'Content-Type': JSON_CONTENT_TYPE, ...headers }, body: JSON.stringify(value) };
}

/** True when a `Content-Type` header names JSON (any parameters). */
export function isJsonContentType(value: string | undefined): boolean {
  if (value === undefined) return false;
  const type = (value.split(';')[0] ?? '').trim().toLowerCase();
  return type === 'application/json' || type.endsWith('+json');
}

/** Reads and parses a JSON body, enforcing the content type and the size cap. */
async function readJsonBody(req: ApiRequest, limit: number): Promise<unknown> {
  const bytes = await req.body.bytes(limit);
  if (bytes.length === 0) return undefined;
  const type = req.headers['content-type'];
  if (!isJsonContentType(type)) {
    throw new ApiError(
      400,
      'badRequest',
      `The request body must be JSON with Content-Type application/json; got ${type === undefined ? 'no Content-Type' : `"${type}"`}.`,
      {
        where: { location: 'Content-Type', locationType: 'header' },
      },
    );
  }
  // Invalid UTF-8 or a lone surrogate must not turn into U+FFFD and be stored as if the client had sent it.
  const strict = strictJsonText(bytes);
  if ('problem' in strict) throw new ApiError(400, 'parseError', `Invalid JSON payload received. ${strict.problem}`);
  return parseJsonText(strict.text);
}

/** Parses JSON text or throws 400 `parseError` carrying the parser's message. */
function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ApiError(400, 'parseError', `Invalid JSON payload received. ${(e as Error).message}`);
  }
}
