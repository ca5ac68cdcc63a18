import { H_AUTHORIZATION, H_CONTENT_TYPE, bearer } from '../protocol/headers.ts';
import { encodeBody } from './encode-body.ts';
import type { ApiCall, RequestOptions } from './api-call.ts';
import { StoreError } from './store-error.ts';
import { TokenSource } from './token-source.ts';
import type { StoreClientOptions } from './types.ts';
import { joinUrl, pathWithQuery } from './url.ts';

/**
 * One base URL and token source: requests with the bearer token, what both clients are made of (`createStoreClient`,
 * and the upload worker's smaller `createUploadClient`). `reuseToken`: keep the getter's answer until a 401
 * (`token-source.ts`), for the worker's one-account client only.
 */
export function connect(options: StoreClientOptions, reuseToken = false) {
  const tokens = new TokenSource(options.getAccessToken, reuseToken);
  const doFetch: typeof fetch = options.fetch ?? ((input, init) => fetch(input, init));

  /**
   * Sends one request with the bearer token (asked again once after a 401) and returns the answer, any status.
   * Network failures become a `StoreError` with status 0; an aborted signal rethrows its reason.
   */
  async function authorizedFetch(method: string, path: string, opts: RequestOptions = {}): Promise<Response> {
    const url = joinUrl(options.baseUrl, pathWithQuery(path, opts.query, opts.fields));
    const { body, contentType } = encodeBody(opts.body);
    let sent: string | undefined;
    for (let attempt = 0; ; attempt++) {
      const headers: Record<string, string> = {
        ...(contentType && { [H_CONTENT_TYPE]: contentType }),
        ...opts.headers,
      };
      if (!hasHeader(headers, H_AUTHORIZATION)) {
        sent = await tokens.get(attempt > 0, sent);
        headers[H_AUTHORIZATION] = bearer(sent);
      }
      let response: Response;
      try {
        response = await doFetch(url, {
          method,
          headers,
          ...(body !== undefined && { body }),
          ...(opts.signal && { signal: opts.signal }),
        });
      } catch (error) {
        if (opts.signal?.aborted) throw opts.signal.reason;
        throw StoreError.network(method, path, error);
      }
      if (response.status === 401 && attempt === 0 && sent !== undefined) {
        await response.body?.cancel();
        continue;
      }
      if (response.status !== 401 && sent !== undefined) tokens.accepted(sent);
      return response;
    }
  }

  async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    const response = await authorizedFetch(method, path, opts);
    const text = await response.text();
    if (!response.ok) throw StoreError.fromResponse(response.status, text);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  function send<T>(call: ApiCall<T>): Promise<T> {
    return request<T>(call.method, call.path, call);
  }

  return { tokens, doFetch, authorizedFetch, request, send };
}

/** What `connect` gives. */
export type Connection = ReturnType<typeof connect>;

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((key) => key.toLowerCase() === name);
}
