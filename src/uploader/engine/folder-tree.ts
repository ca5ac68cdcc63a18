// A chunk loaded on demand: it imports only types, so splitting it off moves no shared module out of the worker.
import type { IdPool } from './id-pool.ts';
import type { ClockPort, FolderRecord, LockPort, SessionStore } from '../contract/ports.ts';

/** Lock names of folder creates, apart from the session locks and from the app's own. */
const FOLDER_LOCK_PREFIX = 'store-upload-kit:folder:';

/** What the tree needs from the engine. */
export interface FolderTreeDeps {
  /** Creates a folder with a pre-generated ID; resolves also when the ID is already in use (409: made before). */
  createFolder(id: string, name: string, parentId: string | undefined): Promise<void>;
  ids: Pick<IdPool, 'take'>;
  store?: SessionStore;
  locks: LockPort;
  clock: ClockPort;
  /** A remembered folder older than this is forgotten (the sessions that could still need it are gone too). */
  lifetimeMs: number;
}

/**
 * The folders that files with a relative path go into (`photos/2026/a.jpg` → `photos` → `2026` under the target).
 * Each folder is created once: concurrent uploads into one path share one create, and its ID — pre-generated with
 * `generateIds` — is stored before the create is sent, so a create repeated after a failure or a reload (in this
 * tab or another, which waits on the folder's lock) answers 409 and the folder is reused rather than duplicated.
 * Loaded by the engine on demand: uploads without folders never fetch it.
 */
export class FolderTree {
  /** Folder IDs of this page life, by record key; a failed create is dropped so the next upload tries again. */
  private readonly known = new Map<string, Promise<string>>();
  /** The IDs taken in this page life, also for stores that keep no folders: a retried create must reuse its ID. */
  private readonly records = new Map<string, FolderRecord>();

  constructor(private readonly deps: FolderTreeDeps) {
    // Once per page life that uploads folders: records past their lifetime would be ignored, so they are dropped.
    deps.store?.pruneFolders?.(deps.clock.now() - deps.lifetimeMs).catch(() => undefined);
  }

  /**
   * Every folder of `path` (`a/b/c`, no file name) under `target` (undefined: the user's root), created where
   * missing; resolves with the deepest one's ID.
   */
  ensure(path: string, target: string | undefined): Promise<string> {
    const names = path.split('/').filter((name) => name !== '');
    if (names.length === 0) return Promise.reject(new RangeError(`"${path}" names no folder`));
    let parent: Promise<string | undefined> = Promise.resolve(target);
    names.forEach((name, i) => {
      const key = JSON.stringify([target ?? '', names.slice(0, i + 1).join('/')]);
      let folder = this.known.get(key);
      if (!folder) {
        const created = parent.then((parentId) => this.create(key, name, parentId));
        folder = created;
        this.known.set(key, created);
        created.catch(() => {
          if (this.known.get(key) === created) this.known.delete(key);
        });
      }
      parent = folder;
    });
    return parent as Promise<string>;
  }

  private async create(key: string, name: string, parentId: string | undefined): Promise<string> {
    const { store, clock, locks, ids, lifetimeMs } = this.deps;
    const release = await locks.acquire(FOLDER_LOCK_PREFIX + key, new AbortController().signal);
    try {
      const now = clock.now();
      const remembered = this.records.get(key) ?? (await store?.getFolder?.(key));
      const record: FolderRecord =
        remembered && now - remembered.updatedAt <= lifetimeMs
          ? { ...remembered, updatedAt: now }
          : { key, id: await ids.take(), updatedAt: now };
      // Stored before the create goes out: whatever happens to its answer, a later try uses the same ID.
      this.records.set(key, record);
      await store?.putFolder?.(record);
      await this.deps.createFolder(record.id, name, parentId);
      return record.id;
    } finally {
      release();
    }
  }
}
