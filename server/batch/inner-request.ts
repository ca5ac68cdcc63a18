/**
 * Turns one parsed batch part into an {@link ApiRequest} for the ordinary dispatcher (spec §4.11, supplement §6):
 * outer headers other than `Content-*` and outer query parameters are inherited, inner ones override; targets the
 * batch may not carry are refused with a 400 for that part only.
 */
import { API_ROOT, BATCH_MAX_URL_LENGTH, type ParsedBatchRequest } from 'store-upload-kit/protocol';
import { ApiError } from '../errors.ts';
import { bufferedBody, type ApiRequest, type RequestBody } from '../api-request.ts';

/** Outer headers never inherited: the envelope's own framing and connection handling. */
const NOT_INHERITED = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'expect',
]);

/** Builds the inner request, or throws the {@link ApiError} that answers this part. */
export function innerRequest(part: ParsedBatchRequest, outer: ApiRequest): ApiRequest {
  const target = part.target;
  if (target.length > BATCH_MAX_URL_LENGTH) {
    throw partError(
      `The inner request URL is ${target.length} characters long; the limit in a batch is ${BATCH_MAX_URL_LENGTH}.`,
    );
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) {
    throw partError(`Batch requests take a URL path with query, not a full URL: "${clip(target)}".`);
  }
  if (!target.startsWith('/')) {
    throw partError(`The inner request target must be a URL path starting with "/"; got "${clip(target)}".`);
  }
  const q = target.indexOf('?');
  const path = q === -1 ? target : target.slice(0, q);
  const query = new URLSearchParams(q === -1 ? '' : target.slice(q + 1));
  if (path.startsWith('/upload/')) throw partError('Media upload is not supported in a batch request.');
  if (path.startsWith('/batch/') || path === '/batch')
    throw partError('A batch request cannot contain another batch request.');
  if (path !== API_ROOT && !path.startsWith(`${API_ROOT}/`)) {
    throw partError(`Every request in this batch must target the ${API_ROOT} API; got the path "${clip(path)}".`);
  }

  // Inherited before the download check: an outer `?alt=media` applies to every part, so it must be refused too.
  for (const [name, value] of outer.query) if (!query.has(name)) query.append(name, value);
  if (query.get('alt') === 'media' || isExportPath(path)) {
    throw partError('Media download is not supported in a batch request.');
  }

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
    body: cappedBody(part.body),
    baseUrl: outer.baseUrl,
    inBatch: true,
  };
}

/**
 * `/store/v3/files/<id>/export`, judged by segments the way the router matches them (empty segments dropped), so
 * a trailing or doubled slash cannot slip an export past the check.
 */
function isExportPath(path: string): boolean {
  const segments = path.split('/').filter((s) => s !== '');
  return segments.length === 5 && segments[2] === 'files' && segments[4] === 'export';
}

/**
 * The part's body, held to the same `bytes(limit)` cap as a direct call's (413), so a batch cannot carry a larger
 * JSON body than the endpoint accepts on its own.
 */
function cappedBody(bytes: Uint8Array): RequestBody {
  const inner = bufferedBody(bytes);
  return {
    length: inner.length,
    stream: () => inner.stream(),
    async bytes(limit = 1024 * 1024) {
      if (bytes.length > limit) {
        throw new ApiError(
          413,
          'requestTooLarge',
          `The request body is larger than the limit of ${limit} bytes for this endpoint.`,
        );
      }
      return inner.bytes(limit);
    },
  };
}

function partError(message: string): ApiError {
  return new ApiError(400, 'badRequest', message);
}

function clip(s: string): string {
  return s.length > 200 ? `${s.slice(0, 200)}…` : s;
}
