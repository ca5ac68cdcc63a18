import type { Principal } from '../access.ts';
import type { Db } from '../db.ts';
import type { FileQuery } from './query.ts';
import { type DbFileRow, type FilePage, toFile, VISIBLE } from './file-rows.ts';

/**
 * The files list as SQL: the files `who` can see that match a parsed `q` (`query.ts`), in creation order, a page
 * of `pageSize` after the file numbered `after` (`FilePage.nextAfter` says where the next page starts).
 */
export function listFiles(db: Db, who: Principal, query: FileQuery, pageSize: number, after: number): FilePage {
  const where: string[] = [VISIBLE, 'f.num > @after'];
  const params: Record<string, unknown> = { email: who.email, domain: who.domain, after, limit: pageSize + 1 };
  query.parents.forEach((p, i) => {
    where.push(`EXISTS (SELECT 1 FROM json_each(f.parents) j WHERE j.value = @parent${i})`);
    params[`parent${i}`] = p;
  });
  query.names.forEach((n, i) => {
    where.push(`f.name = @name${i}`);
    params[`name${i}`] = n;
  });
  if (query.never) where.push('0');
  if (query.trashed !== undefined) {
    where.push('f.trashed = @trashed');
    params.trashed = query.trashed ? 1 : 0;
  }
  const rows = db
    .prepare(`SELECT f.* FROM files f WHERE ${where.join(' AND ')} ORDER BY f.num LIMIT @limit`)
    .all(params) as DbFileRow[];
  const files = rows.slice(0, pageSize).map(toFile);
  const more = rows.length > pageSize;
  return { files, nextAfter: more ? files[files.length - 1]?.num : undefined };
}
