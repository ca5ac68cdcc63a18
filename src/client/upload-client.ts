import { H_AUTHORIZATION, H_CONTENT_TYPE } from '../protocol/headers.ts';
import { encodeBody } from './encode-body.ts';
import type { ApiCall, RequestOptions } from './api-call.ts';
import { createFile, generateIds, getFile } from './calls.ts';
import { StoreError } from './store-error.ts';
import { TokenSource } from './token-source.ts';
import type { StoreClientOptions, UploadClient } from './types.ts';
import { joinUrl, pathWithQuery } from './url.ts';

/** One base URL and token source: requests with the bearer token, which both clients below are made of. */
export function connect(options: StoreClientOptions) {
  const tokens = new TokenSource(options.getAccessToken);
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
      const headers: Record<string, string> = { ...(contentType && { [H_CONTENT_TYPE]: contentType }), ...opts.headers };
      if (!hasHeader(headers, H_AUTHORIZATION)) {
        sent = await tokens.get(attempt > 0, sent);
        headers[H_AUTHORIZATION] = `Bearer ${sent}`;
      }
      let response: Response;
      try {
        response = await doFetch(url, { method, headers, ...(body !== undefined && { body }), ...(opts.signal && { signal: opts.signal }) });
      } catch (error) {
        if (opts.signal?.aborted) throw opts.signal.reason;
        throw new StoreError(0, `Network error on ${method} ${path}: ${(error as Error).message}`);
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

/**
 * The part of the client the upload worker runs: files created and read back, IDs generated, the shared token. Built
 * without the rest of `createStoreClient` (its own file), whose batch codec, downloads and other calls the worker never makes
 * (a bundler cannot drop an object's unused methods, and their lazy chunks would split the worker's first load).
 */
export function createUploadClient(options: StoreClientOptions): UploadClient {
  const { tokens, send } = connect(options);
  return {
    baseUrl: options.baseUrl,
    accessToken: (refresh, failed) => tokens.get(refresh, failed),
    tokenAccepted: (token) => tokens.accepted(token),
    files: {
      get: (fileId, o) => send(getFile(fileId, o)),
      create: (metadata, o) => send(createFile(metadata, o)),
    },
    generateIds: async (count) => (await send(generateIds(count))).ids,
  };
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((key) => key.toLowerCase() === name);
}
