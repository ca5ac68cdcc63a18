import { H_AUTHORIZATION, H_CONTENT_TYPE } from '../protocol/headers.ts';
import { encodeBody } from './encode-body.ts';
import type { ApiCall, RequestOptions } from './api-call.ts';
import { calls } from './calls.ts';
import { StoreError } from './store-error.ts';
import { TokenSource } from './token-source.ts';
import type { StoreClient, StoreClientOptions } from './types.ts';
import { joinUrl, pathWithQuery } from './url.ts';

/** Creates the typed client of the store service. Safe to call anywhere: it touches nothing until a call is made. */
export function createStoreClient(options: StoreClientOptions): StoreClient {
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

  const client: StoreClient = {
    baseUrl: options.baseUrl,
    request,
    send,
    // The batch codec loads on first use: the upload worker embeds this client but never batches.
    batch: async (list, batchOptions = {}) =>
      (await import('./batch.ts')).runBatch(list, {
        baseUrl: options.baseUrl,
        fetch: doFetch,
        tokens,
        ...(batchOptions.signal && { signal: batchOptions.signal }),
        ...(options.backoff && { backoff: options.backoff }),
        retries: options.batchRetries ?? 5,
      }) as never,
    accessToken: (refresh, failed) => tokens.get(refresh, failed),
    tokenAccepted: (token) => tokens.accepted(token),
    files: {
      get: (fileId, o) => send(calls.getFile(fileId, o)),
      list: (o) => send(calls.listFiles(o)),
      create: (metadata, o) => send(calls.createFile(metadata, o)),
      update: (fileId, metadata, o) => send(calls.updateFile(fileId, metadata, o)),
      delete: (fileId) => send(calls.deleteFile(fileId)),
      // Loaded on first use: the upload worker embeds this client and never downloads.
      download: async (fileId, o) => (await import('./download.ts')).download(authorizedFetch, fileId, o),
      export: async (fileId, mimeType, o) => (await import('./download.ts')).exportAs(authorizedFetch, fileId, mimeType, o),
    },
    generateIds: async (count) => (await send(calls.generateIds(count))).ids,
    about: (o) => send(calls.about(o)),
    createPermission: (fileId, permission, o) => send(calls.createPermission(fileId, permission, o)),
  };
  return client;
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((key) => key.toLowerCase() === name);
}
