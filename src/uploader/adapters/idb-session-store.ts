import { del, get, keys, promisifyRequest, set, values, type UseStore } from 'idb-keyval';
import type { FolderRecord, SessionRecord, SessionStore } from '../contract/ports.ts';
import { openWithStore, SESSION_DB, SESSION_STORE } from '../contract/stored-sessions.ts';

/**
 * The folders uploads were put into, in a database of their own: idb-keyval keeps one object store per database,
 * and the session store holds only session records (apps and tests read it as such).
 */
export const FOLDER_DB = 'store-upload-kit-folders';
const FOLDER_STORE = 'folders';
/** Copies of small files (`persist.blobQuotaBytes`), one per session record, under the record's id. */
const FILES_DB = 'store-upload-kit-files';
const FILES_STORE = 'files';

/**
 * Session records in IndexedDB through idb-keyval (structured clone keeps Blobs and file handles). A kept file copy
 * lives in a database of its own and is written once per page life: records are rewritten at every acknowledged
 * chunk, and a Blob inside them would be copied again each time.
 */
export class IdbSessionStore implements SessionStore {
  private readonly db: UseStore = createStore(SESSION_DB, SESSION_STORE);
  private folderDb?: UseStore;
  private readonly files: UseStore = createStore(FILES_DB, FILES_STORE);
  /** Ids whose file copy this store has written (or found) already. */
  private readonly copied = new Set<string>();
  /** Set once the database refused a record holding a Blob or a file handle (WebKit's ephemeral sessions do). */
  private refusesFiles = false;

  async get(id: string): Promise<SessionRecord | undefined> {
    const record = await get<SessionRecord>(id, this.db);
    if (!record) return undefined;
    const file = await get<Blob>(id, this.files).catch(() => undefined);
    return file ? { ...record, file } : record;
  }

  /**
   * Stores the record. Where the database refuses what a record keeps to resume without asking (a Blob or a file
   * handle), the record is stored without it: after a reload the user is asked for the file again, instead of the
   * upload failing at its start.
   */
  async put(record: SessionRecord): Promise<void> {
    const { file, handle, ...plain } = record;
    await this.putRecord(plain, handle);
    // After the record: a copy is never without its record, so another tab's `list` cannot take it for a leftover.
    if (file && !this.refusesFiles && !this.copied.has(record.id)) {
      try {
        await set(record.id, file, this.files);
        this.copied.add(record.id);
      } catch {
        this.refusesFiles = true;
      }
    }
  }

  private async putRecord(
    plain: Omit<SessionRecord, 'file' | 'handle'>,
    handle: FileSystemFileHandle | undefined,
  ): Promise<void> {
    if (handle && !this.refusesFiles) {
      try {
        await set(plain.id, { ...plain, handle }, this.db);
        return;
      } catch {
        this.refusesFiles = true;
      }
    }
    try {
      await set(plain.id, plain, this.db);
    } catch (error) {
      // idb-keyval rejects with the transaction's error, which some engines leave null.
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows the engine's own IndexedDB error, as it was.
      throw error ?? new Error('IndexedDB refused the upload session');
    }
  }

  async delete(id: string): Promise<void> {
    this.copied.delete(id);
    await del(id, this.db);
    await del(id, this.files).catch(() => undefined);
  }

  /** Every record with its file copy; copies whose record is gone (a crash between two writes) are deleted. */
  async list(): Promise<SessionRecord[]> {
    const records = await values<SessionRecord>(this.db);
    const copies = new Set(await keys<string>(this.files).catch(() => [] as string[]));
    const ids = new Set(records.map((r) => r.id));
    for (const id of copies) if (!ids.has(id)) await del(id, this.files).catch(() => undefined);
    return Promise.all(
      records.map(async (record) => {
        if (!copies.has(record.id)) return record;
        this.copied.add(record.id);
        const file = await get<Blob>(record.id, this.files).catch(() => undefined);
        return file ? { ...record, file } : record;
      }),
    );
  }

  getFolder(key: string): Promise<FolderRecord | undefined> {
    return get<FolderRecord>(key, this.folders());
  }

  putFolder(record: FolderRecord): Promise<void> {
    return set(record.key, record, this.folders());
  }

  pruneFolders(before: number): Promise<void> {
    // One readwrite transaction: a folder re-used meanwhile (its record rewritten) is never dropped by a stale read.
    return this.folders()('readwrite', (store) => {
      store.openCursor().onsuccess = function () {
        const cursor = this.result;
        if (!cursor) return;
        if ((cursor.value as FolderRecord).updatedAt < before) cursor.delete();
        cursor.continue();
      };
      return promisifyRequest(store.transaction);
    });
  }

  /** Opened on first use: pages that never upload a folder never create the database. */
  private folders(): UseStore {
    return (this.folderDb ??= createStore(FOLDER_DB, FOLDER_STORE));
  }
}

/** idb-keyval's `createStore`, over `openWithStore`: a database someone else made without the store gets it added. */
function createStore(name: string, store: string): UseStore {
  const ready = openWithStore(name, store);
  return (mode, use) => ready.then((db) => use(db.transaction(store, mode).objectStore(store)));
}
