// Shared bits of the headless suites: options of a store of the test's own (a share key of its own, so no two tests
// meet in the shared engine), slow uploads (the service delays each PUT), waits on a store's snapshots, and a count
// of the subscriptions an uploader holds.
/// <reference types="mocha" />
import type { CreateUploaderOptions, Uploader } from '../../../src/uploader/index.ts';
import { uploadStore, type UploadStore, type UploadsSnapshot } from '../../../src/headless/index.ts';
import { addFault, baseUrl, clearFaults, TOKEN } from '../uploader/helpers.ts';

export const KiB = 1024;
export const MiB = 1024 * KiB;

/** Options of a store no other test shares: resumable in 256 KiB chunks, so an upload moves in many steps. */
export function freshOptions(extra: Partial<CreateUploaderOptions> = {}): CreateUploaderOptions {
  return {
    baseUrl,
    getAccessToken: () => TOKEN,
    shareKey: crypto.randomUUID(),
    chunkSize: 256 * KiB,
    resumableThreshold: 0,
    ...extra,
  };
}

/** Each test's stores are destroyed after it, and the service's faults cleared. */
export function testStores(): (extra?: Partial<CreateUploaderOptions>) => UploadStore {
  const made: UploadStore[] = [];
  afterEach(async () => {
    for (const store of made.splice(0)) store.destroy();
    await clearFaults(baseUrl);
  });
  return (extra) => {
    const store = uploadStore(freshOptions(extra));
    made.push(store);
    return store;
  };
}

/** Every resumable PUT waits `ms` at the service: an upload stays in flight long enough to act on it. */
export async function slowPuts(ms = 60, times = 200): Promise<void> {
  await addFault(baseUrl, { match: { method: 'PUT', uploadType: 'resumable' }, action: { type: 'delay', ms }, times });
}

/**
 * Resolves with the store's first snapshot (the current one included) that `check` accepts. The current one is read
 * once subscribed: a store nothing listens to does not follow its uploader, and subscribing brings it up to date.
 */
export function snapshotWhere(store: UploadStore, check: (s: UploadsSnapshot) => boolean): Promise<UploadsSnapshot> {
  return new Promise((resolve) => {
    const stop = store.subscribe(() => {
      const s = store.getSnapshot();
      if (!check(s)) return;
      stop();
      resolve(s);
    });
    const now = store.getSnapshot();
    if (!check(now)) return;
    stop();
    resolve(now);
  });
}

/** Counts the `change` listeners an uploader holds (its own method, wrapped: the real uploader still runs). */
export function countChangeListeners(uploader: Uploader): () => number {
  let count = 0;
  const add = uploader.addEventListener.bind(uploader);
  const remove = uploader.removeEventListener.bind(uploader);
  uploader.addEventListener = ((type: string, listener: EventListener) => {
    if (type === 'change') count++;
    add(type, listener);
  }) as Uploader['addEventListener'];
  uploader.removeEventListener = ((type: string, listener: EventListener) => {
    if (type === 'change') count--;
    remove(type, listener);
  }) as Uploader['removeEventListener'];
  return () => count;
}
