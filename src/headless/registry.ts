/**
 * One store (so one uploader and one subscription to it) per serialisable options: every component that names the
 * same options — the same service, account, share key, settings — shares it, whatever functions it passes.
 */
import type { UploaderInput, Uploader } from '../uploader/index.ts';
import { inBrowser, UploadStore } from './upload-store.ts';

const stores = new Map<string, UploadStore>();
const objectIds = new WeakMap<object, number>();
let nextObjectId = 0;

/**
 * The key of a set of options: their JSON with keys sorted, functions left out (a new `getAccessToken` each render is
 * the same uploader), and objects JSON cannot tell apart (an app's `Worker`) by identity.
 */
export function optionsKey(options: UploaderInput): string {
  // With a client the store follows its account (`UploadStore.setOptions` makes the client's call): one store for all.
  const { account, ...rest } = options;
  return JSON.stringify(options.client ? rest : { ...rest, account }, function (this: unknown, _key, value: unknown) {
    if (typeof value === 'function') return undefined;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    if ('toJSON' in value) return value;
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) {
      if (!objectIds.has(value)) objectIds.set(value, ++nextObjectId);
      return `#object${objectIds.get(value)}`;
    }
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) sorted[k] = (value as Record<string, unknown>)[k];
    return sorted;
  });
}

/**
 * The store for `options`, made on first use and kept while the page lives: a component that unmounts mid-upload
 * leaves the upload running and the next one to mount finds it. `options` become the store's latest (its token getter
 * is the one asked from now on). On the server each call gets a store of its own that never creates an uploader, so
 * no request sees another's state.
 */
export function uploadStore(options: UploaderInput): UploadStore {
  if (!inBrowser()) return new UploadStore(options);
  const key = optionsKey(options);
  let store = stores.get(key);
  if (!store) {
    store = new UploadStore(options, () => stores.delete(key));
    stores.set(key, store);
  } else store.setOptions(options);
  return store;
}

const wrapped = new WeakMap<Uploader, UploadStore>();

/**
 * The store of an uploader the app already has (one it shares with `<store-uploader>`, or a scripted one in stories
 * and tests): one store per uploader, which follows it and never creates another.
 */
export function storeFor(uploader: Uploader): UploadStore {
  let store = wrapped.get(uploader);
  if (!store) {
    store = new UploadStore(undefined, () => wrapped.delete(uploader), uploader);
    wrapped.set(uploader, store);
  }
  return store;
}
