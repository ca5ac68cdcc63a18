/**
 * Turns one parsed batch part into an {@link ApiRequest} for the ordinary dispatcher (spec §4.11, supplement §6):
 * outer headers other than `Content-*` and outer query parameters are inherited, inner ones override; targets the
 * batch may not carry are refused with a 400 for that part only.
 */
import { API_ROOT, BATCH_MAX_URL_LENGTH, type ParsedBatchRequest } from '../../src/protocol/index.ts';
import { ApiError } from '../errors.ts';
import { bufferedBody, type ApiRequest } from '../http/types.ts';

/** Outer headers never inherited: the envelope's own framing and connection handling. */
const NOT_INHERITED = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'expect']);

/** Builds the inner request, or throws the {@link ApiError} that answers this part. */
export function innerRequest(part: ParsedBatchRequest, outer: ApiRequest): ApiRequest {
  const target = part.target;
  if (target.length > BATCH_MAX_URL_LENGTH) {
    throw partError(`The inner request URL is ${target.length} characters long; the limit in a batch is ${BATCH_MAX_URL_LENGTH}.`);
  }
  if (!target.startsWith('/') || target.startsWith('//')) {
    throw partError(`Batch requests take a URL path with query, not a full URL: "${clip(target)}".`);
  }
  const q = target.indexOf('?');
  const path = q === -1 ? target : target.slice(0, q);
  const query = new URLSearchParams(q === -1 ? '' : target.slice(q + 1));
  if (path.startsWith('/upload/')) throw partError('Media upload is not supported in a batch request.');
  if (path.startsWith('/batch/') || path === '/batch') throw partError('A batch request cannot contain another batch request.');
  if (path !== API_ROOT && !path.startsWith(`${API_ROOT}/`)) {
    throw partError(`Every request in this batch must target the ${API_ROOT} API; got the path "${clip(path)}".`);
  }
  if (query.get('alt') === 'media' || /\/files\/[^/]+\/export$/.test(path)) {
    throw partError('Media download is not supported in a batch request.');
  }

  for (const [name, value] of outer.query) if (!query.has(name)) query.append(name, value);

  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(outer.headers)) {
    if (!name.startsWith('content-') && !NOT_INHERITED.has(name)) headers[name] = value;
  }
  Object.assign(headers, part.headers);

  return {
    method: part.method,
    path,
    query,
    headers,
    body: bufferedBody(part.body),
    baseUrl: outer.baseUrl,
    inBatch: true,
  };
}

function partError(message: string): ApiError {
  return new ApiError(400, 'badRequest', message);
}

function clip(s: string): string {
  return s.length > 200 ? `${s.slice(0, 200)}…` : s;
}
