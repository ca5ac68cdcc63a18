import type { SessionRecord, SessionStore } from '../contract/ports.ts';

/**
 * Session records in memory: for `persist: false` and for Node, where there is no IndexedDB. Folders are not kept:
 * an engine remembers the folder IDs it took for its own life.
 */
export class MemorySessionStore implements SessionStore {
  private readonly records = new Map<string, SessionRecord>();

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
}
