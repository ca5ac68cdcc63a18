import type { FolderRecord, SessionRecord, SessionStore } from '../ports.ts';

/** Session records in memory: for `persist: false` and for Node, where there is no IndexedDB. */
export class MemorySessionStore implements SessionStore {
  private readonly records = new Map<string, SessionRecord>();
  private readonly folders = new Map<string, FolderRecord>();

  async get(id: string): Promise<SessionRecord | undefined> {
    const record = this.records.get(id);
    return record && { ...record };
  }

  async put(record: SessionRecord): Promise<void> {
    this.records.set(record.id, { ...record });
  }

  async delete(id: string): Promise<void> {
    this.records.delete(id);
  }

  async list(): Promise<SessionRecord[]> {
    return [...this.records.values()].map((record) => ({ ...record }));
  }

  async getFolder(key: string): Promise<FolderRecord | undefined> {
    const record = this.folders.get(key);
    return record && { ...record };
  }

  async putFolder(record: FolderRecord): Promise<void> {
    this.folders.set(record.key, { ...record });
  }
}
