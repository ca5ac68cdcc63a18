import type { ImageResizeOptions, UploaderOptions } from './options.ts';
import { validateOptions } from './validate-options.ts';

/** Files up to this size are kept in IndexedDB with their session unless the app says otherwise (`persist`). */
const DEFAULT_BLOB_QUOTA_BYTES = 64 * 1024 * 1024;

/** The defaults of the options the engine also needs when it is built without settings (Node, custom environments). */
const ENGINE_DEFAULTS = {
  stallTimeoutMs: 30_000,
  maxRetries: 8,
  resumableThreshold: 5 * 1024 * 1024,
} as const;

/** The options of {@link ENGINE_DEFAULTS}, each with its value. */
type EngineDefaulted = { -readonly [K in keyof typeof ENGINE_DEFAULTS]: number };

/**
 * The stall timeout, retries and resumable threshold of `given`, each defaulted: what `resolveSettings` applies, and
 * what `UploadEngine` applies to a config built without settings — so these defaults, too, are applied only here.
 */
export function engineDefaults(given: { [K in keyof EngineDefaulted]?: number | undefined }): EngineDefaulted {
  return {
    stallTimeoutMs: given.stallTimeoutMs ?? ENGINE_DEFAULTS.stallTimeoutMs,
    maxRetries: given.maxRetries ?? ENGINE_DEFAULTS.maxRetries,
    resumableThreshold: given.resumableThreshold ?? ENGINE_DEFAULTS.resumableThreshold,
  };
}

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
 * every default. The one place a default lives: the engine, the worker and the facade read the result.
 */
export function resolveSettings(options: UploaderOptions): UploaderSettings {
  validateOptions({ ...options, baseUrl: options.baseUrl ?? '' });
  const persist = options.persist ?? true;
  const quota =
    persist === false
      ? 0
      : ((typeof persist === 'object' ? persist.blobQuotaBytes : undefined) ?? DEFAULT_BLOB_QUOTA_BYTES);
  const { stallTimeoutMs, maxRetries, resumableThreshold } = engineDefaults(options);
  return {
    baseUrl: options.baseUrl,
    concurrency: options.concurrency,
    chunkSize: options.chunkSize,
    resumableThreshold,
    verify: options.verify ?? true,
    wasm: options.wasm ?? true,
    persist: persist !== false,
    blobQuotaBytes: quota,
    stallTimeoutMs,
    maxRetries,
    backoff: options.backoff,
    parentId: options.parentId,
    flatten: options.flatten ?? false,
    imageResize: options.imageResize,
    shareKey: options.shareKey ?? '',
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
