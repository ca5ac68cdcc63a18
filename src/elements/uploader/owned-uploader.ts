import type { ImageResizeOptions, Uploader } from '../../uploader/index.ts';

/** The attributes of `<store-uploader>` that configure an uploader it creates itself. */
export interface OwnedUploaderSettings {
  baseUrl: string;
  concurrency: number | undefined;
  chunkSize: number | undefined;
  resumableThreshold: number | undefined;
  imageResize: ImageResizeOptions | undefined;
}

/**
 * Creates the uploader `<store-uploader>` owns when it has a `base-url` and no `uploader`. Only the facade (comlink and
 * the hand-over to the worker) loads: the uploader entry would also pull the engine, the worker service and the MD5
 * hasher onto the main thread, where none of them runs. `undefined` when no longer wanted once the facade is loaded.
 */
export async function createOwnedUploader(
  settings: OwnedUploaderSettings,
  getAccessToken: () => string | Promise<string>,
  stillWanted: () => boolean,
): Promise<Uploader | undefined> {
  const { createUploader } = await import('./uploader-facade.ts');
  // The element may have been given an uploader, or left the page, while the facade loaded.
  if (!stillWanted()) return undefined;
  const { baseUrl, concurrency, chunkSize, resumableThreshold, imageResize } = settings;
  return createUploader({
    baseUrl,
    getAccessToken,
    ...(concurrency ? { concurrency } : {}),
    ...(chunkSize ? { chunkSize } : {}),
    // 0 is a threshold too (every file resumable): only a missing or unparsable attribute means the default.
    ...(Number.isFinite(resumableThreshold) ? { resumableThreshold } : {}),
    ...(imageResize ? { imageResize } : {}),
  });
}
