import { createStore, del, get, set, values, type UseStore } from 'idb-keyval';
import type { SessionRecord, SessionStore } from '../ports.ts';

/** The kit's own IndexedDB database and object store, apart from anything the app keeps. */
export const SESSION_DB = 'store-upload-kit';
export const SESSION_STORE = 'sessions';

/** Session records in IndexedDB through idb-keyval (structured clone keeps Blobs and file handles). */
export class IdbSessionStore implements SessionStore {
  private readonly db: UseStore = createStore(SESSION_DB, SESSION_STORE);

  get(id: string): Promise<SessionRecord | undefined> {
    return get<SessionRecord>(id, this.db);
  }

  put(record: SessionRecord): Promise<void> {
    return set(record.id, record, this.db);
  }

  delete(id: string): Promise<void> {
    return del(id, this.db);
  }

  list(): Promise<SessionRecord[]> {
    return values<SessionRecord>(this.db);
  }
}
