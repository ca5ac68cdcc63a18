/** Public entry of the uploader layer: the main-thread facade, its types, and the engine for custom environments. */
export { createUploader, type CreateUploaderOptions } from './page/create-uploader.ts';
export { UploadError } from './upload-error.ts';
export { loadBeforeUpload } from './page/before-upload-loader.ts';
export type { BeforeUploadOutcome } from './page/before-upload.ts';
export { UploadEngine, type EngineConfig, type EngineIo, type EngineFile } from './engine/engine.ts';
export { SESSION_LIFETIME_MS } from './engine/session-records.ts';
export { UploadWorkerService, EngineHubs, type EnginePorts } from './host/worker-service.ts';
export type { TaskResult, FileInfo, Attachment, SignOutUploads } from './worker-contract.ts';
export { resolveSettings, type UploaderSettings } from './settings.ts';
export { NoPageAttached } from './engine/no-page.ts';
/** @deprecated The old name of `UploadWorkerService` (it runs in the worker). */
export { UploadWorkerService as UploaderService } from './host/worker-service.ts';
export { MemorySessionStore } from './adapters/memory-session-store.ts';
export { IdbSessionStore, FOLDER_DB } from './adapters/idb-session-store.ts';
export { SESSION_DB, SESSION_STORE } from './stored-sessions.ts';
export { xhrHttp } from './adapters/xhr-http.ts';
export { systemClock } from './adapters/system-clock.ts';
export { ManualOnline } from './adapters/manual-online.ts';
export { navigatorOnline } from './page/page-environment.ts';
export { webLocks } from './adapters/web-locks.ts';
export { sessionLockKey } from './ports.ts';
export { MemoryLocks } from './adapters/memory-locks.ts';
export { broadcastChannel } from './adapters/broadcast-channel.ts';
export type * from './ports.ts';
export type * from './types.ts';
export type * from './options.ts';
