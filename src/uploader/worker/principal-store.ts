/**
 * Worker side: one account's view of the shared session store. Every engine is one account's (`engine-hub.ts`), and
 * sees through this view only the records that account wrote: its interrupted uploads, the files it resumes, the
 * folders it made. A record of no account (written before accounts were kept) is proven to be no one's: it is
 * hidden, and deleted once its session has expired anyway.
 */
import type { FolderRecord, SessionRecord, SessionStore } from '../contract/ports.ts';
import { SESSION_LIFETIME_MS } from '../engine/session-records.ts';

/** `store` as `principal` sees it: its records only, each record it writes stamped with it. */
export function principalStore(store: SessionStore, principal: string, now: () => number): SessionStore {
  const mine = (record: SessionRecord | undefined) => (record?.principal === principal ? record : undefined);
  // Folder keys name the account too: two accounts uploading into "photos/" of their own roots get two folders.
  const folderKey = (key: string) => JSON.stringify([principal, key]);
  return {
    get: async (id) => mine(await store.get(id)),
    put: (record) => store.put({ ...record, principal }),
    delete: async (id) => {
      if (mine(await store.get(id))) await store.delete(id);
    },
    list: async () => {
      const records = await store.list();
      for (const record of records)
        if (record.principal === undefined && now() - record.updatedAt > SESSION_LIFETIME_MS)
          await store.delete(record.id);
      return records.filter((record) => record.principal === principal);
    },
    ...(store.getFolder && {
      getFolder: async (key: string) => {
        const folder = await store.getFolder!(folderKey(key));
        return folder && { ...folder, key };
      },
    }),
    ...(store.putFolder && {
      putFolder: (folder: FolderRecord) => store.putFolder!({ ...folder, key: folderKey(folder.key) }),
    }),
    ...(store.pruneFolders && { pruneFolders: (before: number) => store.pruneFolders!(before) }),
  };
}
