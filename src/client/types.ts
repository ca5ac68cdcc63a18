import type { BackoffOptions } from '../protocol/backoff.ts';
import type { ApiCall, RequestOptions, ResultOf } from './api-call.ts';
import type { ListFilesOptions, UpdateFileOptions } from './calls.ts';
import type { FieldsOption } from './api-call.ts';
import type { StoreError } from './store-error.ts';
import type { DownloadOptions } from './download.ts';
import type { AccountChanges } from './account-changes.ts';
import type {
  FileMetadataInput,
  PermissionInput,
  StoreAbout,
  StoreFile,
  StoreFileList,
  StorePermission,
} from './resources.ts';

/** Options of `createStoreClient`. */
export interface StoreClientOptions {
  /** Where the service lives, e.g. `https://store.example` (a path prefix is kept). */
  baseUrl: string;
  /**
   * Returns the signed-in account's bearer token. `createStoreClient` asks it for every request (and once more after
   * a 401), so a sign-in as another account takes effect on the next request: cache in the getter (your OAuth
   * library's `getAccessToken()` does), not around the client.
   */
  getAccessToken: () => string | Promise<string>;
  /** The `fetch` to use (default: the global one). */
  fetch?: typeof fetch;
  /** Backoff of batch retries (spec §7); tests shorten it. */
  backoff?: BackoffOptions;
  /** Times a batch retries inner calls that failed with 5xx or a rate limit (default 5). */
  batchRetries?: number;
}

/** The outcome of one call inside a batch, in the order the calls were given. */
export type BatchOutcome<T> = { ok: true; status: number; value: T } | { ok: false; status: number; error: StoreError };

/** Outcomes of a batch, typed per call. */
export type BatchOutcomes<C extends readonly ApiCall<unknown>[]> = {
  -readonly [K in keyof C]: BatchOutcome<ResultOf<C[K]>>;
};

/**
 * The typed service client. `accountChanged(account?)` is the kit's one account-change call: the client itself needs
 * none (it asks `getAccessToken` for every request), but the watchers and uploaders made with it move when it is made.
 */
export interface StoreClient extends AccountChanges {
  readonly baseUrl: string;
  /** Sends one request to `path` (under the base URL) and returns the parsed JSON (undefined for an empty body). */
  request<T>(method: string, path: string, options?: RequestOptions): Promise<T>;
  /** Sends one prepared call. */
  send<T>(call: ApiCall<T>): Promise<T>;
  /**
   * Sends calls in `multipart/mixed` batches of at most 100, maps answers back by `Content-ID`, and retries the
   * calls that failed with 5xx or a rate limit (with backoff). Never rejects for an inner failure.
   */
  batch<const C extends readonly ApiCall<unknown>[]>(
    calls: C,
    options?: { signal?: AbortSignal },
  ): Promise<BatchOutcomes<C>>;
  /**
   * A bearer token to send now: `createStoreClient` asks `getAccessToken` each time; the upload worker's
   * `createUploadClient` keeps it until `refresh` (after a 401 answered `failed`) asks again — at most once per
   * streak of 401s, and not at all when the failed token was already replaced.
   */
  accessToken(refresh?: boolean, failed?: string): Promise<string>;
  /** Tells the client a request made with `token` got an answer other than 401, so a later 401 may refresh again. */
  tokenAccepted(token: string): void;
  files: {
    get(fileId: string, options?: { fields?: FieldsOption }): Promise<StoreFile>;
    list(options?: ListFilesOptions): Promise<StoreFileList>;
    create(metadata: FileMetadataInput, options?: { fields?: FieldsOption }): Promise<StoreFile>;
    update(fileId: string, metadata: FileMetadataInput, options?: UpdateFileOptions): Promise<StoreFile>;
    delete(fileId: string): Promise<void>;
    /** The file's content (`?alt=media`) as a Blob of its stored type; native kinds answer 403 (use `export`). */
    download(fileId: string, options?: DownloadOptions): Promise<Blob>;
    /**
     * A native file (document, spreadsheet, presentation, script) converted to `mimeType`, one of the about
     * resource's `exportFormats` for its kind.
     */
    export(fileId: string, mimeType: string, options?: DownloadOptions): Promise<Blob>;
  };
  /** Pre-generated file IDs (supplement §4). */
  generateIds(count?: number): Promise<string[]>;
  about(options?: { fields?: FieldsOption }): Promise<StoreAbout>;
  createPermission(
    fileId: string,
    permission: PermissionInput,
    options?: { sendNotificationEmail?: boolean; fields?: FieldsOption },
  ): Promise<StorePermission>;
}

/** What the upload engine needs of a client: a whole {@link StoreClient} will do, or the smaller `createUploadClient`. */
export type UploadClient = Pick<StoreClient, 'baseUrl' | 'accessToken' | 'tokenAccepted' | 'generateIds'> & {
  files: Pick<StoreClient['files'], 'get' | 'create'>;
};
