import { StoreError, type StoreClient } from '../client/index.ts';
import { FOLDER_MIME } from '../protocol/native.ts';
import type { IdPool } from './id-pool.ts';
import type { ClockPort, FolderRecord, LockPort, SessionStore } from './ports.ts';
import type { AddOptions } from './types.ts';

/** Lock names of folder creates, apart from the session locks and from the app's own. */
const FOLDER_LOCK_PREFIX = 'store-upload-kit:folder:';

/** What the tree needs from the engine. */
export interface FolderTreeDeps {
  client: Pick<StoreClient, 'files'>;
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
 */
export class FolderTree {
  /** Folder IDs of this page life, by record key; a failed create is dropped so the next upload tries again. */
  private readonly known = new Map<string, Promise<string>>();

  constructor(private readonly deps: FolderTreeDeps) {}

  /**
   * Every folder of `path` (`a/b/c`, no file name) under `target` (undefined: the user's root), created where
   * missing; resolves with the deepest one's ID.
   */
  ensure(path: string, target: string | undefined): Promise<string> {
    const names = segmentsOf(path);
    if (names.length === 0) return Promise.reject(new StoreError(400, `"${path}" names no folder`));
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

  /**
   * The options an upload is sent with once its folder is known: `metadata.parents` is the folder of its relative
   * path (or the target alone when flattening or when the path has no folder). Parents the app set itself, and
   * updates of an existing file, are left as they are. `signal` ends the wait, not a create other uploads share.
   */
  async place(options: AddOptions, signal: AbortSignal): Promise<AddOptions> {
    if (options.updateFileId || options.metadata?.parents !== undefined) return options;
    const folders = options.flatten ? [] : segmentsOf(options.relativePath ?? '').slice(0, -1);
    const parent = folders.length > 0 ? await untilAborted(this.ensure(folders.join('/'), options.parentId), signal) : options.parentId;
    return parent === undefined ? options : { ...options, metadata: { ...options.metadata, parents: [parent] } };
  }

  private async create(key: string, name: string, parentId: string | undefined): Promise<string> {
    const { store, clock, locks, client, ids, lifetimeMs } = this.deps;
    const release = await locks.acquire(FOLDER_LOCK_PREFIX + key, new AbortController().signal);
    try {
      const now = clock.now();
      const remembered = await store?.getFolder?.(key);
      const record: FolderRecord =
        remembered && now - remembered.updatedAt <= lifetimeMs ? { ...remembered, updatedAt: now } : { key, id: await ids.take(), updatedAt: now };
      // Stored before the create goes out: whatever happens to its answer, a later try uses the same ID.
      await store?.putFolder?.(record);
      try {
        await client.files.create({ id: record.id, name, mimeType: FOLDER_MIME, ...(parentId !== undefined && { parents: [parentId] }) }, { fields: 'id' });
      } catch (error) {
        // Spec §4.6: the ID is in use, so an earlier try created the folder.
        if (!(error instanceof StoreError && error.status === 409 && error.reason === 'fileIdInUse')) throw error;
      }
      return record.id;
    } finally {
      release();
    }
  }
}

/** `promise`, or a rejection with the signal's reason as soon as it aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The non-empty names of a slash-separated path. */
function segmentsOf(path: string): string[] {
  return path.split('/').filter((name) => name !== '');
}
