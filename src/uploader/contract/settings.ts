import type { ImageResizeOptions, UploaderOptions } from './options.ts';
import { validateOptions } from './validate-options.ts';

/**
 * Every default of the uploader's options, in one object: `resolveSettings` applies them once, on the page, and
 * the engine reads the result as it comes (README, "Options", has the same figures).
 */
export const DEFAULT_SETTINGS = {
  resumableThreshold: 5 * 1024 * 1024,
  verify: true,
  wasm: true,
  persist: true,
  /** Files up to this size are kept in IndexedDB with their session unless the app says otherwise (`persist`). */
  blobQuotaBytes: 64 * 1024 * 1024,
  stallTimeoutMs: 30_000,
  maxRetries: 8,
  flatten: false,
  shareKey: '',
} as const;

/**
 * The uploader's options as the engine runs them: checked and with every default applied, once, on the page
 * (`resolveSettings`), then passed as they are to whichever worker hosts the engine. Plain data, so it crosses
 * threads by structured clone, and its JSON names the engine that pages with the same settings share.
 */
export interface UploaderSettings {
  baseUrl: string;
  /** The app's exact number of uploads at once; undefined: the engine adapts it (`engine/concurrency-policy.ts`). */
  concurrency: number | undefined;
  /** Bytes per resumable request, `'adaptive'`, or undefined for one request per file. */
  chunkSize: number | 'adaptive' | undefined;
  resumableThreshold: number;
  verify: boolean;
  wasm: boolean;
  /** Keep resumable sessions in IndexedDB. */
  persist: boolean;
  /** Copy files up to this size into IndexedDB with their session (0 when `persist` is off or the app said 0). */
  blobQuotaBytes: number;
  stallTimeoutMs: number;
  maxRetries: number;
  backoff: { baseMs?: number; capMs?: number } | undefined;
  parentId: string | undefined;
  flatten: boolean;
  imageResize: ImageResizeOptions | undefined;
  /** Pages whose settings and `shareKey` are equal share one engine (see `UploaderOptions.shareKey`). */
  shareKey: string;
}

/**
 * Checks `options` (throwing a `bad-request` UploadError that names the first one that cannot work) and applies
 * every default of `DEFAULT_SETTINGS`: the one place options are checked and defaulted; the engine, the worker and the
 * facade read the result.
 */
export function resolveSettings(options: UploaderOptions): UploaderSettings {
  validateOptions({ ...options, baseUrl: options.baseUrl ?? '' });
  const d = DEFAULT_SETTINGS;
  const persist = options.persist ?? d.persist;
  const quota = persist === false ? 0 : ((persist === true ? undefined : persist.blobQuotaBytes) ?? d.blobQuotaBytes);
  return {
    baseUrl: options.baseUrl,
    concurrency: options.concurrency,
    chunkSize: options.chunkSize,
    resumableThreshold: options.resumableThreshold ?? d.resumableThreshold,
    verify: options.verify ?? d.verify,
    wasm: options.wasm ?? d.wasm,
    persist: persist !== false,
    blobQuotaBytes: quota,
    stallTimeoutMs: options.stallTimeoutMs ?? d.stallTimeoutMs,
    maxRetries: options.maxRetries ?? d.maxRetries,
    backoff: options.backoff,
    parentId: options.parentId,
    flatten: options.flatten ?? d.flatten,
    imageResize: options.imageResize,
    shareKey: options.shareKey ?? d.shareKey,
  };
}

/** The name of the engine these settings run: equal for equal settings, whatever order the app wrote them in. */
export function engineKeyOf(settings: UploaderSettings): string {
  return JSON.stringify(settings, (_key, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)))
      : value,
  );
}
