/**
 * The change log as each user sees it (supplement §8): one entry per file with its latest state, including
 * tombstones for files that were deleted or are no longer shared with the user.
 *
 * Why a table of our own: who could see a file is gone once it is deleted or unshared, and the core's `changes`
 * table has no audience. After every committed mutation this module records which users (the configured token
 * holders) can see the file now, compares with who could before, and upserts each affected user's entry.
 */
import type { MetadataDb } from '../metadata/metadata-port.ts';
import type { Principal } from '../access.ts';
import type { FileStore } from '../store/files.ts';

/** One user's latest entry for a file. */
export interface UserChange {
  seq: number;
  fileId: string;
  removed: boolean;
  time: number;
}

/** Who can see a file after a change, and who could before it. */
export interface Audience {
  now: ReadonlySet<string>;
  before: ReadonlySet<string>;
}

/** Per-user change log over the metadata database. */
export class UserChangeLog {
  readonly #db: MetadataDb;
  readonly #files: FileStore;
  readonly #users: () => readonly Principal[];

  constructor(db: MetadataDb, files: FileStore, users: () => readonly Principal[]) {
    this.#db = db;
    this.#files = files;
    this.#users = users;
  }

  /** Users (by e-mail) who can see the file now; empty for a deleted file. */
  async visibleTo(fileId: string): Promise<ReadonlySet<string>> {
    const out = new Set<string>();
    if (!(await this.#files.get(fileId))) return out;
    for (const user of this.#users()) if (await this.#files.roleOf(fileId, user)) out.add(user.email);
    return out;
  }

  /**
   * Records a committed change of `fileId` at change-log position `seq`; returns the audience before and after.
   * `visible` is who sees the file now, when the caller already knows it (the events of one group commit share it).
   */
  async record(fileId: string, seq: number, time: number, visible?: ReadonlySet<string>): Promise<Audience> {
    const now = visible ?? (await this.visibleTo(fileId));
    return this.#db.transaction(async () => {
      const rows = await this.#db.all<{ email: string }>('SELECT email FROM push_audience WHERE file_id = ?', fileId);
      const before = new Set(rows.map((r) => r.email));
      const upsert = (email: string, removed: number) =>
        this.#db.run(
          `INSERT INTO push_user_changes (email, file_id, seq, removed, time) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (email, file_id) DO UPDATE SET seq = excluded.seq, removed = excluded.removed, time = excluded.time
           WHERE excluded.seq >= push_user_changes.seq`,
          email,
          fileId,
          seq,
          removed,
          time,
        );
      for (const email of now) await upsert(email, 0);
      for (const email of before) if (!now.has(email)) await upsert(email, 1);
      // Most changes (every one after the first of a group commit) leave the audience as it was: nothing to rewrite.
      const same = before.size === now.size && [...now].every((email) => before.has(email));
      if (!same) {
        await this.#db.run('DELETE FROM push_audience WHERE file_id = ?', fileId);
        for (const email of now) {
          await this.#db.run('INSERT INTO push_audience (file_id, email) VALUES (?, ?)', fileId, email);
        }
      }
      return { now, before };
    });
  }

  /** A user's entries at or after `fromSeq`, oldest first, at most `limit` (+1 to tell whether there are more). */
  async list(email: string, fromSeq: number, limit: number): Promise<UserChange[]> {
    const rows = await this.#db.all<{ file_id: string; seq: number; removed: number; time: number }>(
      'SELECT file_id, seq, removed, time FROM push_user_changes WHERE email = ? AND seq >= ? ORDER BY seq, file_id LIMIT ?',
      email,
      fromSeq,
      limit,
    );
    return rows.map((r) => ({ fileId: r.file_id, seq: r.seq, removed: r.removed === 1, time: r.time }));
  }
}
