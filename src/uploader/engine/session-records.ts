import {
  sessionLockKey,
  type ClockPort,
  type HttpPort,
  type LockPort,
  type SessionRecord,
  type SessionStore,
} from '../contract/ports.ts';
import type { InterruptedUpload } from '../contract/types.ts';
import { fileNamed } from './old-names.ts';
import { deleteSession } from './request-metadata.ts';

/** Sessions untouched this long are gone on the service too (spec §3.1): their records are dropped. */
export const SESSION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The engine's view of the session records kept for resuming (`SessionStore`, IndexedDB in browsers): the live ones
 * (expired ones deleted on the way), the one a new file resumes, the interrupted ones a page lists, and discarding
 * one. `busy` says whether a task of the engine uploads a record now.
 */
export class SessionRecords {
  /** The records being read for the adds that came meanwhile (see `find`). */
  #listing?: Promise<SessionRecord[]>;

  constructor(
    private readonly config: { store?: SessionStore; clock: ClockPort; locks: LockPort; http: HttpPort },
    private readonly busy: (record: SessionRecord) => boolean,
  ) {}

  async get(id: string): Promise<SessionRecord | undefined> {
    const stored = await this.config.store?.get(id);
    return stored && fileNamed(stored);
  }

  /** The live record of a file with this fingerprint that no task uploads now. */
  async find(fingerprint: string): Promise<SessionRecord | undefined> {
    if (!this.config.store) return undefined;
    // The adds that arrive while the records are being read share that read: each read is a scan of IndexedDB
    // (done in the browser's own process), and 10,000 files added at once read it 10,000 times otherwise — seconds of
    // two cores' time, taken from the page while its list is scrolled (bench/README.md, render).
    const records = await (this.#listing ??= this.live().finally(() => (this.#listing = undefined)));
    return records.find((r) => r.fingerprint === fingerprint && !this.busy(r));
  }

  /**
   * Sessions stored by an earlier page life that no task of this engine is using (`used`) and no other tab is
   * uploading (it holds the session's lock); expired ones are deleted.
   */
  async interrupted(used: (record: SessionRecord) => boolean): Promise<InterruptedUpload[]> {
    const records = await this.live();
    const held = await this.config.locks.held();
    return records
      .filter((record) => !used(record))
      .filter((record) => !held.has(sessionLockKey(record.sessionUri)))
      .map((record) => ({
        id: record.id,
        name: record.name,
        type: record.type,
        total: record.total,
        bytesAcknowledged: record.acknowledged,
        updatedAt: record.updatedAt,
        ...(record.relativePath && { relativePath: record.relativePath }),
        canResumeWithoutFile: record.file !== undefined || record.handle !== undefined,
        ...(record.handle && { handle: record.handle }),
      }));
  }

  /**
   * Forgets an interrupted upload and cancels its session with the service. A record that a task of this engine or
   * another tab is uploading is no longer interrupted and is left alone: deleting it under that task would race its
   * next record write (the record comes back) and its next request (the session is gone).
   */
  async discard(id: string, timeoutMs: number): Promise<void> {
    const record = await this.config.store?.get(id);
    if (!record || this.busy(record)) return;
    // Held while deleting, so no tab starts uploading the session in between.
    const lock = await this.config.locks.tryAcquire(sessionLockKey(record.sessionUri));
    if (!lock) return;
    try {
      await this.config.store?.delete(id);
      await deleteSession(this.config.http, record.sessionUri, timeoutMs);
    } finally {
      lock();
    }
  }

  private async live(): Promise<SessionRecord[]> {
    const store = this.config.store;
    if (!store) return [];
    const now = this.config.clock.now();
    const live: SessionRecord[] = [];
    for (const record of await store.list()) {
      if (now - record.updatedAt > SESSION_LIFETIME_MS) await store.delete(record.id);
      else live.push(fileNamed(record));
    }
    return live;
  }
}
