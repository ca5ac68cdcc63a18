import { createStore, del, get, set, values, type UseStore } from 'idb-keyval';
import type { FolderRecord, SessionRecord, SessionStore } from '../ports.ts';

/** The kit's own IndexedDB database and object store, apart from anything the app keeps. */
export const SESSION_DB = 'store-upload-kit';
export const SESSION_STORE = 'sessions';
/**
 * The folders uploads were put into, in a database of their own: idb-keyval keeps one object store per database,
 * and the session store holds only session records (apps and tests read it as such).
 */
export const FOLDER_DB = 'store-upload-kit-folders';
const FOLDER_STORE = 'folders';

/** Session records in IndexedDB through idb-keyval (structured clone keeps Blobs and file handles). */
export class IdbSessionStore implements SessionStore {
  private readonly db: UseStore = createStore(SESSION_DB, SESSION_STORE);
  private folderDb?: UseStore;
  /** Set once the database refused a record holding a Blob or a file handle (WebKit's ephemeral sessions do). */
  private refusesFiles = false;

  get(id: string): Promise<SessionRecord | undefined> {
    return get<SessionRecord>(id, this.db);
  }

  /**
   * Stores the record. Where the database refuses what a record keeps to resume without asking (a Blob or a file
   * handle), the record is stored without it: after a reload the user is asked for the file again, instead of the
   * upload failing at its start.
   */
  async put(record: SessionRecord): Promise<void> {
    const { blob, handle, ...plain } = record;
    if (!this.refusesFiles || (!blob && !handle)) {
      try {
        return await set(record.id, record, this.db);
      } catch (error) {
        // idb-keyval rejects with the transaction's error, which some engines leave null.
        if (!blob && !handle) throw error ?? new Error('IndexedDB refused the upload session');
        this.refusesFiles = true;
      }
    }
    await set(record.id, plain, this.db);
  }

  delete(id: string): Promise<void> {
    return del(id, this.db);
  }

  list(): Promise<SessionRecord[]> {
    return values<SessionRecord>(this.db);
  }

  getFolder(key: string): Promise<FolderRecord | undefined> {
    return get<FolderRecord>(key, this.folders());
  }

  putFolder(record: FolderRecord): Promise<void> {
    return set(record.key, record, this.folders());
  }

  /** Opened on first use: pages that never upload a folder never create the database. */
  private folders(): UseStore {
    return (this.folderDb ??= createStore(FOLDER_DB, FOLDER_STORE));
  }
}
