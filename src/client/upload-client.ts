import { createFile, generateIds, getFile } from './calls.ts';
import { connect, type Connection } from './connection.ts';
import type { StoreClientOptions, UploadClient } from './types.ts';

/**
 * The part of the client the upload worker runs: files created and read back, IDs generated, the shared token. Its
 * getter is asked once and again after a 401 (one engine's, which is one account's: `getAccessToken` is the worker's,
 * not the app's); `createStoreClient` asks the app's for every request. Built
 * without the rest of `createStoreClient` (its own file), whose batch codec, downloads and other calls the worker never
 * makes (a bundler cannot drop an object's unused methods, and their lazy chunks would split the worker's first load).
 */
export function createUploadClient(options: StoreClientOptions): UploadClient {
  return uploadClientOf(connect(options, true), options.baseUrl);
}

/** The upload client's calls over a connection; `createStoreClient` is made of them and the rest. */
export function uploadClientOf({ tokens, send }: Connection, baseUrl: string): UploadClient {
  return {
    baseUrl,
    accessToken: (refresh, failed) => tokens.get(refresh, failed),
    tokenAccepted: (token) => tokens.accepted(token),
    files: {
      get: (fileId, o) => send(getFile(fileId, o)),
      create: (metadata, o) => send(createFile(metadata, o)),
    },
    generateIds: async (count) => (await send(generateIds(count))).ids,
  };
}
