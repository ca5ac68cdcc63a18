/** Public entry of the client layer: the typed service client and its types. */
export { createStoreClient } from './create-store-client.ts';
export { createUploadClient } from './upload-client.ts';
export {
  calls,
  type FileField,
  type FileListField,
  type AboutField,
  type PermissionField,
  type ListFilesOptions,
  type UpdateFileOptions,
} from './calls.ts';
export { StoreError, isRetryable, isRateLimit } from './store-error.ts';
export { TokenError } from './token-source.ts';
export { accountChanges, type AccountChanges, type AccountListener } from './account-changes.ts';
export type { ApiCall, FieldsOption, QueryValues, RequestOptions, ResultOf } from './api-call.ts';
export type { StoreClient, StoreClientOptions, UploadClient, BatchOutcome, BatchOutcomes } from './types.ts';
export type { DownloadOptions, DownloadProgress } from './download.ts';
export type * from './resources.ts';
export { pathWithQuery, joinUrl } from './url.ts';
export {
  createWatcher,
  type Watcher,
  type Watch,
  type WatcherOptions,
  type WatchClient,
  type ChannelInfo,
} from './watch.ts';
export { openRelaySubscription, RelayError, type RelaySubscription } from './relay-events.ts';
export { PUSH_STATES, type PushEvent, type PushState } from '../protocol/push.ts';
