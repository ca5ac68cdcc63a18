/** The kit's own IndexedDB database and object store of upload sessions, apart from anything the app keeps. */
export const SESSION_DB = 'store-upload-kit';
export const SESSION_STORE = 'sessions';
/** The Web Lock the site's shared upload worker holds while any upload it runs has not ended. */
export const BUSY_LOCK = 'store-upload-kit:busy';

/**
 * Whether the site's shared upload worker runs uploads now (another page or tab gave them); `undefined` without Web
 * Locks. As small as it can be: it is in every page's first chunk.
 */
export const uploadsRunning = (): Promise<boolean> | undefined =>
  navigator.locks?.query().then(
    (state) => state.held!.some((lock) => lock.name == BUSY_LOCK),
    () => false,
  );

/**
 * Opens database `name` with its object `store` (as idb-keyval's `createStore` makes it: out-of-line keys, no index),
 * creating either where missing. A database someone else opened first, without the store (a page script or a test
 * reading it before the kit ever ran creates it empty), gets the store in an upgrade instead of failing every write.
 */
export function openWithStore(name: string, store: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const open = (version?: number) => {
      const request = indexedDB.open(name, version);
      request.onupgradeneeded = () =>
        request.result.objectStoreNames.contains(store) || request.result.createObjectStore(store);
      request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
      request.onsuccess = () => {
        const db = request.result;
        if (db.objectStoreNames.contains(store)) {
          resolve(db);
          return;
        }
        db.close();
        open(db.version + 1);
      };
    };
    open();
  });
}

/**
 * Whether an earlier page life (or another tab) left upload sessions in this origin's IndexedDB. Runs on the main
 * thread before the uploader is loaded — its own module, with no import, so that asking costs a page nothing more.
 * The database is opened as the uploader's worker opens it, so it exists with the kit's store from here on. An
 * unknown answer (no IndexedDB, an error) is `true`: the caller then loads the uploader as if there were sessions.
 */
export function hasStoredSessions(name = SESSION_DB, store = SESSION_STORE): Promise<boolean> {
  return openWithStore(name, store).then(
    (db) =>
      new Promise<boolean>((resolve) => {
        try {
          const count = db.transaction(store, 'readonly').objectStore(store).count();
          count.onsuccess = () => resolve(count.result > 0);
          count.onerror = () => resolve(true);
        } catch {
          resolve(true);
        } finally {
          // Closing lets the count finish and keeps a later upgrade of the database from waiting on this page.
          db.close();
        }
      }),
    () => true,
  );
}
