import type { Principal } from '../access.ts';
import type { MetadataDb, SqlValue } from '../metadata/metadata-port.ts';
import { jsonArrayItems } from '../metadata/sql-dialect.ts';
import { type FileQuery, ROOT } from './query.ts';
import { type DbFileRow, type FilePage, toFile, VISIBLE } from './file-rows.ts';

/**
 * The files list as SQL: the files `who` can see that match a parsed `q` (`query.ts`), in creation order, a page
 * of `pageSize` after the file numbered `after` (`FilePage.nextAfter` says where the next page starts).
 */
export async function listFiles(
  db: MetadataDb,
  who: Principal,
  query: FileQuery,
  pageSize: number,
  after: number,
): Promise<FilePage> {
  const where: string[] = [VISIBLE, 'f.num > ?'];
  const params: SqlValue[] = [who.email, who.domain, after];
  for (const p of query.parents) {
    if (p === ROOT) {
      // The caller's own top level, as the modelled API's `root`: files it owns that sit in no folder.
      where.push(`NOT EXISTS (SELECT 1 FROM ${jsonArrayItems(db.dialect, 'f.parents')}) AND f.owner = ?`);
      params.push(who.email);
      continue;
    }
    where.push(`EXISTS (SELECT 1 FROM ${jsonArrayItems(db.dialect, 'f.parents')} WHERE j.value = ?)`);
    params.push(p);
  }
  for (const n of query.names) {
    where.push('f.name = ?');
    params.push(n);
  }
  if (query.never) where.push('1 = 0');
  if (query.trashed !== undefined) {
    where.push('f.trashed = ?');
    params.push(query.trashed ? 1 : 0);
  }
  const rows = await db.all<DbFileRow>(
    `SELECT f.* FROM files f WHERE ${where.join(' AND ')} ORDER BY f.num LIMIT ?`,
    ...params,
    pageSize + 1,
  );
  const files = rows.slice(0, pageSize).map(toFile);
  const more = rows.length > pageSize;
  return { files, nextAfter: more ? files[files.length - 1]?.num : undefined };
}
