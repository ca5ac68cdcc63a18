import { accountChanges } from './account-changes.ts';
import { calls } from './calls.ts';
import { connect } from './connection.ts';
import type { StoreClient, StoreClientOptions } from './types.ts';
import { uploadClientOf } from './upload-client.ts';

/** Creates the typed client of the store service. Safe to call anywhere: it touches nothing until a call is made. */
export function createStoreClient(options: StoreClientOptions): StoreClient {
  const connection = connect(options);
  const { tokens, doFetch, authorizedFetch, request, send } = connection;
  // The calls the upload worker's client makes too, written once.
  const core = uploadClientOf(connection, options.baseUrl);

  const client: StoreClient = {
    ...core,
    // Its own calls follow the getter already; the parts bound to it (watchers, uploaders) move on this call.
    ...accountChanges(),
    request,
    send,
    // The batch codec loads on first use: most pages never batch.
    batch: async (list, batchOptions = {}) =>
      (await import('./batch.ts')).runBatch(list, {
        baseUrl: options.baseUrl,
        fetch: doFetch,
        tokens,
        ...(batchOptions.signal && { signal: batchOptions.signal }),
        ...(options.backoff && { backoff: options.backoff }),
        retries: options.batchRetries ?? 5,
      }) as never,
    files: {
      ...core.files,
      list: (o) => send(calls.listFiles(o)),
      update: (fileId, metadata, o) => send(calls.updateFile(fileId, metadata, o)),
      delete: (fileId) => send(calls.deleteFile(fileId)),
      // Loaded on first use: most pages never download.
      download: async (fileId, o) => (await import('./download.ts')).download(authorizedFetch, fileId, o),
      export: async (fileId, mimeType, o) =>
        (await import('./download.ts')).exportAs(authorizedFetch, fileId, mimeType, o),
    },
    about: (o) => send(calls.about(o)),
    createPermission: (fileId, permission, o) => send(calls.createPermission(fileId, permission, o)),
  };
  return client;
}
