import type { Clock } from '../clock.ts';
import type { MetadataDb } from '../metadata/metadata-port.ts';
import { newFileId } from './ids.ts';

/**
 * Pre-generated file IDs (`generated_ids`): handed out to a user, usable once, by that user only, for a file that
 * does not exist yet. `FileStore` marks one used in the transaction that creates its file.
 */
export class GeneratedIds {
  constructor(
    private readonly db: MetadataDb,
    private readonly clock: Clock,
  ) {}

  /** Hands out `count` new IDs to `user`. */
  async generate(user: string, count: number): Promise<string[]> {
    const ids = Array.from({ length: count }, () => newFileId());
    const now = this.clock.now();
    await this.db.transaction(async () => {
      for (const id of ids) {
        await this.db.run('INSERT INTO generated_ids (id, "user", used, created) VALUES (?, ?, 0, ?)', id, user, now);
      }
    });
    return ids;
  }

  /** Whether `user` may create a file with `id`: `in-use` (→ 409), `not-usable` (→ 400) or `ok`. */
  async status(id: string, user: string): Promise<'in-use' | 'not-usable' | 'ok'> {
    const row = await this.db.get<{ user: string; used: number }>(
      'SELECT "user", used FROM generated_ids WHERE id = ?',
      id,
    );
    const fileExists = (await this.db.get('SELECT 1 AS one FROM files WHERE id = ?', id)) !== undefined;
    if (fileExists || row?.used === 1) return 'in-use';
    if (!row || row.user !== user) return 'not-usable';
    return 'ok';
  }

  /** `id` is now a file's (inside the transaction that creates it); an ID the service made up itself is not listed. */
  async markUsed(id: string): Promise<void> {
    await this.db.run('UPDATE generated_ids SET used = 1 WHERE id = ?', id);
  }
}
