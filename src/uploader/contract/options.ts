/** The options of `createUploader` (checked in `validate-options.ts`, resolved in `settings.ts`). */
import type { BeforeUpload } from './types.ts';
import type { AccountChanges } from '../../client/account-changes.ts';

/**
 * What the uploader takes of a store client (`createStoreClient` gives it): where the service is, its token, and its
 * `accountChanged`, the app's one account-change call, which moves the uploader too until it is destroyed.
 */
export type UploaderClient = AccountChanges & { readonly baseUrl: string; accessToken(): Promise<string> };

/** Options of `createUploader`. */
export interface UploaderOptions {
  baseUrl: string;
  getAccessToken: () => string | Promise<string>;
  /**
   * The app's store client: `baseUrl` and `getAccessToken` default to its own, and its `accountChanged` moves this
   * uploader (`Uploader.accountChanged`) until `destroy`.
   */
  client?: UploaderClient;
  /**
   * Files uploaded at once, exactly. Left out, the uploader chooses (README, "How many files upload at once"): up to
   * 32 at once over HTTP/2 or HTTP/3, at most 6 over HTTP/1.1 (the browser's connections per host) or before the
   * protocol is known, and fewer while large files still have many bytes to send.
   */
  concurrency?: number;
  /** Bytes per resumable request: a multiple of 256 KiB, `'adaptive'`, or undefined for one request per file. */
  chunkSize?: number | 'adaptive';
  /** Files larger than this go resumable (default 5 MiB). */
  resumableThreshold?: number;
  /**
   * Compare the service's `md5Checksum` and `size` with what was sent (default true). The MD5 is computed in a
   * second worker beside the requests; `false` never hashes.
   */
  verify?: boolean;
  /**
   * Hash with WebAssembly (hash-wasm, default true). Set `false` on pages whose Content-Security-Policy lacks
   * `'wasm-unsafe-eval'`: the kit then uses its JavaScript MD5 (ts-md5, slower) without trying WebAssembly, so the
   * browser reports no violation. Left on under such a policy, the first compile is refused once and the kit falls
   * back by itself.
   */
  wasm?: boolean;
  /**
   * Keep resumable sessions in IndexedDB (default true); the first uploader of the page then asks the browser for
   * persistent storage. `blobQuotaBytes`: a file up to this size is copied into IndexedDB once, when its resumable
   * session starts, so it resumes after a reload without the user choosing it again, in every browser; the copy is
   * deleted when the upload ends (done, cancelled, discarded) or its session expires (default 64 MiB per file; 0:
   * never). A file given with a `handle` (File System Access pickers and drops in Chromium) keeps the handle instead,
   * whatever its size.
   */
  persist?: boolean | { blobQuotaBytes?: number };
  /** Milliseconds without progress before a request counts as stalled (default 30 000). */
  stallTimeoutMs?: number;
  /** Tries per task before it fails with `retries-exhausted` (default 8); any acknowledged progress renews them. */
  maxRetries?: number;
  /**
   * Waiting between tries (spec §7): exponential with full jitter, a random delay below
   * `min(capMs, baseMs × 2^attempt)` (defaults 1000 and 32 000 ms). Offline time never counts as a try.
   */
  backoff?: { baseMs?: number; capMs?: number };
  /**
   * The folder files go into (default: the user's root). Files with a `relativePath` go into the same tree of
   * folders under it, each folder created once, even across a reload (its pre-generated ID is kept with the sessions).
   */
  parentId?: string;
  /** Put every file directly into `parentId`, ignoring the folders of relative paths (default false). */
  flatten?: boolean;
  /**
   * Scale images down before upload (off by default). JPEG, PNG, WebP, AVIF and BMP files larger than
   * `maxWidth` × `maxHeight` are decoded upright (EXIF orientation applied), scaled to fit, and encoded as `type`
   * (default: the original's type where a canvas writes it, else PNG) at `quality` (0–1, JPEG and WebP), in the
   * worker. The task's `total` is then the resized size and `originalSize` the chosen file's; the MD5 checked is
   * that of the bytes sent, and the resized image is kept with its session so it resumes after a reload.
   */
  imageResize?: ImageResizeOptions;
  /**
   * A worker the app created itself, when its bundler cannot resolve the kit's worker URL: a `Worker` of the kit's
   * `worker.js`, or a `SharedWorker` of its `shared-worker.js` (started with `{ type: 'module', name:
   * 'store-upload-kit', extendedLifetime: true }`, as every page of the site must).
   */
  worker?: Worker | SharedWorker;
  /**
   * Where the app serves its copy of the package's `dist/workers/` folder (a URL, relative to the page's base URL),
   * when its bundler leaves the kit's worker URLs alone (Angular's application builder): the uploader then starts
   * `<workerBase>/<kit version>/shared-worker.js` (or `worker.js`) instead. The version folder keeps two kit versions
   * on one site apart: each has its own shared worker.
   */
  workerBase?: string | URL;
  /**
   * Where the engine runs. `'auto'` (default): one engine for every page and tab of the site in a module
   * `SharedWorker`, kept alive across navigations and for a while after the last page closes, where the browser
   * supports `extendedLifetime` (Chromium 148+); else a worker of this page's own. `'dedicated'`: always a worker of this page's own,
   * whose uploads stop with the page and resume on the next visit. `uploader.host` tells which one runs.
   */
  host?: 'auto' | 'dedicated';
  /**
   * The signed-in account's ID, as the app knows it. Uploads belong to the account that chose them: a page sees,
   * hears and controls only its account's uploads, and a task is sent only with tokens of its own account. Left out,
   * the uploader asks the service whose each token is (`about.user`, once per token), so an app that says nothing is
   * safe too; naming it saves that round trip before a page's first list. Tokens are still checked against the
   * account before use. Name it on every page of the site or on none: `'u42'` and the same user found by token are
   * two accounts to the uploader.
   */
  account?: string;
  /**
   * Pages of the site whose uploaders have the same options and the same `shareKey` share one engine per account, its
   * tasks and its access tokens. Accounts are kept apart without it (see `account`).
   */
  shareKey?: string;
  /**
   * Called for every file given to `add` before it goes to the worker: skip it, replace it, or change its name,
   * metadata or conversion (see `BeforeUpload`). Not called for `resumeInterrupted`: that file was accepted before.
   */
  beforeUpload?: BeforeUpload;
}

/** Bounds and encoding of `imageResize`; a missing bound does not limit that side. */
export interface ImageResizeOptions {
  maxWidth?: number;
  maxHeight?: number;
  /** `image/jpeg`, `image/png` or `image/webp`. */
  type?: string;
  /** 0–1, for JPEG and WebP. */
  quality?: number;
}
