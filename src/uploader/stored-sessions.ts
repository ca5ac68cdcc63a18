/** The kit's own IndexedDB database and object store of upload sessions, apart from anything the app keeps. */
export const SESSION_DB = 'store-upload-kit';
export const SESSION_STORE = 'sessions';

/**
 * Whether an earlier page life (or another tab) left upload sessions in this origin's IndexedDB. Runs on the main
 * thread before the uploader is loaded — its own module, with no import, so that asking costs a page nothing more.
 * Where the database does not exist yet it is created with the kit's (empty) store, as the uploader's worker would:
 * a database someone else creates first, without that store, would cost the worker an upgrade that their open
 * connection can hold up. An unknown answer (no IndexedDB, an error) is `true`: the caller then loads the uploader
 * as if there were sessions to offer.
 */
export function hasStoredSessions(name = SESSION_DB, store = SESSION_STORE): Promise<boolean> {
  return new Promise((resolve) => {
    let open: IDBOpenDBRequest;
    try {
      open = indexedDB.open(name);
    } catch {
      return resolve(true);
    }
    // The same store idb-keyval's `createStore` makes: out-of-line keys, no index.
    open.onupgradeneeded = () => open.result.objectStoreNames.contains(store) || open.result.createObjectStore(store);
    open.onerror = () => resolve(true);
    open.onblocked = () => resolve(true);
    open.onsuccess = () => {
      const db = open.result;
      try {
        if (!db.objectStoreNames.contains(store)) return resolve(false);
        const count = db.transaction(store, 'readonly').objectStore(store).count();
        count.onsuccess = () => resolve(count.result > 0);
        count.onerror = () => resolve(true);
      } catch {
        resolve(true);
      } finally {
        // Closing lets the request finish and keeps the worker's later upgrade of the database from being blocked.
        db.close();
      }
    };
  });
}
