import type { Clock } from '../clock.ts';
import { atomically, type Db } from '../db.ts';
import { newFileId } from './ids.ts';

/**
 * Pre-generated file IDs (`generated_ids`): handed out to a user, usable once, by that user only, for a file that
 * does not exist yet. `FileStore` marks one used in the transaction that creates its file.
 */
export class GeneratedIds {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Hands out `count` new IDs to `user`. */
  generate(user: string, count: number): string[] {
    const ids = Array.from({ length: count }, () => newFileId());
    const now = this.clock.now();
    const insert = this.db.prepare('INSERT INTO generated_ids (id, user, used, created) VALUES (?, ?, 0, ?)');
    atomically(this.db, () => ids.forEach((id) => insert.run(id, user, now)));
    return ids;
  }

  /** Whether `user` may create a file with `id`: `in-use` (→ 409), `not-usable` (→ 400) or `ok`. */
  status(id: string, user: string): 'in-use' | 'not-usable' | 'ok' {
    const row = this.db.prepare('SELECT user, used FROM generated_ids WHERE id = ?').get(id) as
      { user: string; used: number } | undefined;
    const fileExists = this.db.prepare('SELECT 1 FROM files WHERE id = ?').get(id) !== undefined;
    if (fileExists || row?.used === 1) return 'in-use';
    if (!row || row.user !== user) return 'not-usable';
    return 'ok';
  }

  /** `id` is now a file's (inside the transaction that creates it); an ID the service made up itself is not listed. */
  markUsed(id: string): void {
    this.db.prepare('UPDATE generated_ids SET used = 1 WHERE id = ?').run(id);
  }
}
