/**
 * `store-service migrate`: moves a single machine's data folder (SQLite + content on disk) into the service's
 * shared backends (PostgreSQL + an object store), so a team can grow from one machine to several. Run it with the
 * single-machine service stopped and no node on the target yet; the target database must be empty (fresh schema).
 *
 * What moves: every file row, permission, pre-generated ID, change-log entry, push channel and pending push message,
 * and the content of every file (each written once into the object store, its row pointing at the new object).
 * What does not: resumable sessions still open (their clients get 404 and start again, as after a week of
 * inactivity) and what `/__admin` set at run time (faults, run-time tokens).
 */
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { checkContentKey } from './content/content-keys.ts';
import type { ContentStore } from './content/content-port.ts';
import type { MetadataDb, SqlValue } from './metadata/metadata-port.ts';

/** Tables moved as they are, in an order that keeps references valid, with their serial column if any. */
const TABLES: readonly { readonly name: string; readonly serial?: string }[] = [
  { name: 'files', serial: 'num' },
  { name: 'permissions' },
  { name: 'generated_ids' },
  { name: 'users' },
  { name: 'changes', serial: 'seq' },
  { name: 'push_channels' },
  { name: 'push_outbox', serial: 'seq' },
  { name: 'push_audience' },
  { name: 'push_user_changes' },
];

/** What a migration moved. */
export interface MigrationReport {
  readonly rows: Readonly<Record<string, number>>;
  readonly contentObjects: number;
  readonly contentBytes: number;
  readonly sessionsLeft: number;
}

/** Columns the target knows (a newer schema may have more; an older folder fewer). */
async function columnsOf(db: MetadataDb, table: string): Promise<string[]> {
  const row = await db.all<Record<string, unknown>>(`SELECT * FROM ${table} LIMIT 1`);
  return row[0] ? Object.keys(row[0]) : [];
}

/**
 * Copies `source` (a data folder's SQLite, migrated to this version's schema, its content under `dataDir`: each
 * row's content key is a path there) into `target` and `content`. Refuses a target that already holds files.
 */
export async function migrateDataFolder(
  source: MetadataDb,
  dataDir: string,
  target: MetadataDb,
  content: ContentStore,
): Promise<MigrationReport> {
  const existing = await target.get<{ n: number }>('SELECT COUNT(*) AS n FROM files');
  if ((existing?.n ?? 0) > 0) throw new Error('the target database already holds files: migrate into an empty one');
  // Content first: a row must never name an object that is not there.
  const renamed = new Map<string, string>();
  let bytes = 0;
  const keys = await source.all<{ key: string }>(
    'SELECT DISTINCT content_key AS key FROM files WHERE content_key IS NOT NULL',
  );
  for (const { key } of keys) {
    const written = await content.write(createReadStream(join(dataDir, checkContentKey(key))));
    renamed.set(key, written.key);
    bytes += written.size;
  }
  const rows: Record<string, number> = {};
  await target.transaction(async () => {
    for (const table of TABLES) {
      const all = await source.all<Record<string, unknown>>(`SELECT * FROM ${table.name}`);
      rows[table.name] = all.length;
      if (all.length === 0) continue;
      const columns = await columnsOf(source, table.name);
      const quoted = columns.map((c) => `"${c}"`).join(', ');
      const marks = columns.map(() => '?').join(', ');
      for (const row of all) {
        if (table.name === 'files' && typeof row.content_key === 'string')
          row.content_key = renamed.get(row.content_key) ?? row.content_key;
        await target.run(
          `INSERT INTO ${table.name} (${quoted}) VALUES (${marks})`,
          ...columns.map((c) => (row[c] ?? null) as SqlValue),
        );
      }
      // Serial columns go on from the highest number moved, so new rows never reuse one.
      if (table.serial && target.dialect === 'postgres') {
        await target.get(
          `SELECT setval(pg_get_serial_sequence('${table.name}', '${table.serial}'), (SELECT MAX(${table.serial}) FROM ${table.name}))`,
        );
      }
    }
    const offset = await source.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', 'clockOffsetMs');
    if (offset) {
      await target.run(
        'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
        'clockOffsetMs',
        offset.value,
      );
    }
  });
  const open = await source.get<{ n: number }>(`SELECT COUNT(*) AS n FROM sessions WHERE state = 'open'`);
  return { rows, contentObjects: renamed.size, contentBytes: bytes, sessionsLeft: open?.n ?? 0 };
}
