import { BLOCK_SIZE } from '../../protocol/blocks.ts';
import type { UploaderOptions } from './options.ts';
import { UploadError } from './upload-error.ts';

/** The options `resolveSettings` checks (once, on the page), with the backoff tuning tests and apps may pass. */
type CheckedOptions = Partial<
  Pick<
    UploaderOptions,
    | 'baseUrl'
    | 'concurrency'
    | 'chunkSize'
    | 'resumableThreshold'
    | 'stallTimeoutMs'
    | 'maxRetries'
    | 'imageResize'
    | 'account'
  >
> & {
  backoff?: { baseMs?: number; capMs?: number };
};

/**
 * Throws a `bad-request` UploadError naming the first option that cannot work, so a mistake shows at
 * `createUploader` instead of as failed uploads later (or a queue that never moves, for `concurrency: 0`).
 */
export function validateOptions(options: CheckedOptions): void {
  const bad = (message: string): never => {
    throw new UploadError({ code: 'bad-request', message });
  };
  if (options.baseUrl !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(options.baseUrl);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      bad(`baseUrl must be an absolute http(s) URL of the service; got ${JSON.stringify(options.baseUrl)}`);
    }
  }
  const { chunkSize } = options;
  if (chunkSize !== undefined && chunkSize !== 'adaptive') {
    if (typeof chunkSize !== 'number')
      bad(`chunkSize must be a multiple of 256 KiB or 'adaptive'; got ${JSON.stringify(chunkSize)}`);
    validateChunkSize(chunkSize);
  }
  if (options.account !== undefined && (typeof options.account !== 'string' || options.account === ''))
    bad(`account must be a non-empty string naming the signed-in account; got ${JSON.stringify(options.account)}`);
  integer(options.concurrency, 'concurrency', 1, bad);
  integer(options.maxRetries, 'maxRetries', 0, bad);
  integer(options.resumableThreshold, 'resumableThreshold', 0, bad);
  integer(options.stallTimeoutMs, 'stallTimeoutMs', 1, bad);
  integer(options.backoff?.baseMs, 'backoff.baseMs', 0, bad);
  integer(options.backoff?.capMs, 'backoff.capMs', 0, bad);
  integer(options.imageResize?.maxWidth, 'imageResize.maxWidth', 1, bad);
  integer(options.imageResize?.maxHeight, 'imageResize.maxHeight', 1, bad);
}

/** Throws a `bad-request` UploadError unless `chunkSize` is a positive multiple of 256 KiB. */
function validateChunkSize(chunkSize: number): void {
  if (!Number.isSafeInteger(chunkSize) || chunkSize <= 0 || chunkSize % BLOCK_SIZE !== 0) {
    throw new UploadError({
      code: 'bad-request',
      message: `chunkSize must be a positive multiple of ${BLOCK_SIZE} bytes (256 KiB); got ${chunkSize}`,
    });
  }
}

function integer(value: unknown, name: string, min: number, bad: (message: string) => never): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    bad(`${name} must be a whole number of at least ${min}; got ${JSON.stringify(value)}`);
  }
}
