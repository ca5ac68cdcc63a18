/**
 * The change log as each user sees it (supplement §8): one entry per file with its latest state, including
 * tombstones for files that were deleted or are no longer shared with the user.
 *
 * Why a table of our own: who could see a file is gone once it is deleted or unshared, and the core's `changes`
 * table has no audience. After every committed mutation this module records which users (the configured token
 * holders) can see the file now, compares with who could before, and upserts each affected user's entry.
 */
import type { Database } from 'better-sqlite3';
import { atomically } from '../db.ts';
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

/** Per-user change log over SQLite. */
export class UserChangeLog {
  readonly #db: Database;
  readonly #files: FileStore;
  readonly #users: () => readonly Principal[];

  constructor(db: Database, files: FileStore, users: () => readonly Principal[]) {
    this.#db = db;
    this.#files = files;
    this.#users = users;
    db.exec(`
      CREATE TABLE IF NOT EXISTS push_audience (
        file_id TEXT NOT NULL,
        email TEXT NOT NULL,
        PRIMARY KEY (file_id, email)
      );
      CREATE TABLE IF NOT EXISTS push_user_changes (
        email TEXT NOT NULL,
        file_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        removed INTEGER NOT NULL,
        time INTEGER NOT NULL,
        PRIMARY KEY (email, file_id)
      );
      CREATE INDEX IF NOT EXISTS push_user_changes_seq ON push_user_changes (email, seq);
    `);
  }

  /** Users (by e-mail) who can see the file now; empty for a deleted file. */
  visibleTo(fileId: string): ReadonlySet<string> {
    const out = new Set<string>();
    if (!this.#files.get(fileId)) return out;
    for (const user of this.#users()) if (this.#files.roleOf(fileId, user)) out.add(user.email);
    return out;
  }

  /**
   * Records a committed change of `fileId` at change-log position `seq`; returns the audience before and after.
   * `visible` is who sees the file now, when the caller already knows it (the events of one group commit share it).
   */
  record(fileId: string, seq: number, time: number, visible?: ReadonlySet<string>): Audience {
    const now = visible ?? this.visibleTo(fileId);
    return atomically(this.#db, () => {
      const before = new Set(
        (this.#db.prepare('SELECT email FROM push_audience WHERE file_id = ?').all(fileId) as { email: string }[]).map(
          (r) => r.email,
        ),
      );
      const upsert = this.#db.prepare(
        `INSERT INTO push_user_changes (email, file_id, seq, removed, time) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (email, file_id) DO UPDATE SET seq = excluded.seq, removed = excluded.removed, time = excluded.time
         WHERE excluded.seq >= push_user_changes.seq`,
      );
      for (const email of now) upsert.run(email, fileId, seq, 0, time);
      for (const email of before) if (!now.has(email)) upsert.run(email, fileId, seq, 1, time);
      // Most changes (every one after the first of a group commit) leave the audience as it was: nothing to rewrite.
      const same = before.size === now.size && [...now].every((email) => before.has(email));
      if (!same) {
        this.#db.prepare('DELETE FROM push_audience WHERE file_id = ?').run(fileId);
        const add = this.#db.prepare('INSERT INTO push_audience (file_id, email) VALUES (?, ?)');
        for (const email of now) add.run(fileId, email);
      }
      return { now, before };
    });
  }

  /** A user's entries at or after `fromSeq`, oldest first, at most `limit` (+1 to tell whether there are more). */
  list(email: string, fromSeq: number, limit: number): UserChange[] {
    const rows = this.#db
      .prepare(
        'SELECT file_id, seq, removed, time FROM push_user_changes WHERE email = ? AND seq >= ? ORDER BY seq, file_id LIMIT ?',
      )
      .all(email, fromSeq, limit) as { file_id: string; seq: number; removed: number; time: number }[];
    return rows.map((r) => ({ fileId: r.file_id, seq: r.seq, removed: r.removed === 1, time: r.time }));
  }
}
