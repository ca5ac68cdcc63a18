import { MainThreadUploader, type CreateUploaderOptions } from './main-thread-uploader.ts';
import type { Uploader } from '../contract/types.ts';
import { UploadError } from '../contract/upload-error.ts';
export type { CreateUploaderOptions } from './main-thread-uploader.ts';

/** `createUploader`'s options: with a `client`, its `baseUrl` and `getAccessToken` are the defaults of those two. */
export type UploaderInput = Omit<CreateUploaderOptions, 'baseUrl' | 'getAccessToken'> &
  Partial<Pick<CreateUploaderOptions, 'baseUrl' | 'getAccessToken'>>;

function withClient(options: UploaderInput): CreateUploaderOptions {
  const client = options?.client;
  return (
    client ? { baseUrl: client.baseUrl, getAccessToken: () => client.accessToken(), ...options } : options
  ) as CreateUploaderOptions;
}

/**
 * Creates the uploader: every byte of upload work runs in a module worker reached through comlink (the site's shared
 * worker where the browser has one); the object returned only hands over files and keeps the latest snapshot of each
 * task for rendering. Safe to import during server-side rendering: nothing touches `window` or `Worker` until it is
 * called.
 */
export function createUploader(given: UploaderInput): Uploader {
  const options = withClient(given);
  if (typeof options?.getAccessToken !== 'function') {
    throw new UploadError({
      code: 'bad-request',
      message: 'getAccessToken must be a function that returns the bearer token',
    });
  }
  if (options.beforeUpload !== undefined && typeof options.beforeUpload !== 'function') {
    throw new UploadError({
      code: 'bad-request',
      message: 'beforeUpload must be a function (file, { relativePath }) => …',
    });
  }
  if (!options.service && !options.worker && typeof Worker === 'undefined' && typeof SharedWorker === 'undefined') {
    throw new UploadError({
      code: 'bad-request',
      message:
        'createUploader needs a browser with Web Workers (it was called where there is no Worker, e.g. Node or server-side rendering); create it in the browser, after the page loads',
    });
  }
  const uploader = new MainThreadUploader(options);
  // Bound to the app's client until `destroy`: its `accountChanged` is the app's one call (`UploaderOptions.client`).
  const unbind = options.client?.onAccountChange((account) => uploader.accountChanged(account));
  const destroy = uploader.destroy.bind(uploader);
  if (unbind)
    uploader.destroy = () => {
      unbind();
      destroy();
    };
  return uploader;
}
