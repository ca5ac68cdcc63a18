/** The SQLite database of the service (`<data>/store.db`, WAL): schema and opening. */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { checkSqliteWrite } from './storage-faults.ts';

/** The better-sqlite3 handle type, re-exported so feature modules (push, permissions) can take the same db. */
export type Db = Database.Database;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (
  num INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  mime_type TEXT NOT NULL,
  description TEXT,
  original_filename TEXT,
  parents TEXT NOT NULL DEFAULT '[]',
  size INTEGER,
  md5 TEXT,
  blob TEXT,
  created_time INTEGER NOT NULL,
  modified_time INTEGER NOT NULL,
  trashed INTEGER NOT NULL DEFAULT 0,
  version INTEGER NOT NULL,
  owner TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS permissions (
  file_id TEXT NOT NULL,
  id TEXT NOT NULL,
  type TEXT NOT NULL,
  role TEXT NOT NULL,
  email TEXT,
  domain TEXT,
  PRIMARY KEY (file_id, id)
);
CREATE INDEX IF NOT EXISTS permissions_email ON permissions (email);
CREATE INDEX IF NOT EXISTS permissions_domain ON permissions (domain);
-- Role checks (every change, and push audiences after it) look up one caller's grants on one file.
CREATE INDEX IF NOT EXISTS permissions_grantee ON permissions (file_id, type, email);
CREATE TABLE IF NOT EXISTS generated_ids (
  id TEXT PRIMARY KEY,
  user TEXT NOT NULL,
  used INTEGER NOT NULL DEFAULT 0,
  created INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY,
  user TEXT NOT NULL,
  client TEXT NOT NULL,
  target_file_id TEXT,
  metadata TEXT NOT NULL,
  query TEXT NOT NULL,
  content_type TEXT NOT NULL,
  declared_length INTEGER,
  total INTEGER,
  created INTEGER NOT NULL,
  last_activity INTEGER NOT NULL,
  state TEXT NOT NULL,
  result TEXT
);
CREATE TABLE IF NOT EXISTS changes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  file_id TEXT NOT NULL,
  removed INTEGER NOT NULL,
  time INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS changes_file ON changes (file_id);
`;

/** Opens (creating if needed) `<dataDir>/store.db` in WAL mode with the service schema. */
export function openDatabase(dataDir: string): Db {
  const db = new Database(join(dataDir, 'store.db'));
  db.pragma('journal_mode = WAL');
  // NORMAL in WAL mode survives a process crash (kill -9); only an OS crash could lose the last commits.
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.exec(SCHEMA);
  cacheStatements(db);
  return db;
}

/**
 * better-sqlite3 compiles a statement on every `prepare` and the service's queries are constant strings, so each is
 * compiled once and reused (no caller changes a statement's mode with `pluck`/`raw`, which would leak to others).
 */
function cacheStatements(db: Db): void {
  const compile = db.prepare.bind(db);
  const cache = new Map<string, ReturnType<Db['prepare']>>();
  db.prepare = ((sql: string) => {
    let statement = cache.get(sql);
    if (!statement) {
      statement = compile(sql);
      cache.set(sql, statement);
    }
    return statement;
  }) as Db['prepare'];
}

const runners = new WeakMap<Db, (fn: () => unknown) => unknown>();

/**
 * Runs `fn` in a transaction (a savepoint when one is open, e.g. a group commit) and returns its result; rolls back
 * and rethrows when it throws. Same as `db.transaction(fn)()`, but better-sqlite3 builds a new transaction function
 * on every `db.transaction` call (about 15 µs); this builds one per database.
 */
export function atomically<T>(db: Db, fn: () => T): T {
  let run = runners.get(db);
  if (!run) {
    run = db.transaction((body: () => unknown) => body());
    runners.set(db, run);
  }
  // An injected database fault (`--admin`) fails the transaction before it writes, as a full disk would.
  checkSqliteWrite();
  return run(fn) as T;
}

/** Reads a `meta` value. */
export function getMeta(db: Db, key: string): string | undefined {
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value;
}

/** Writes a `meta` value. */
export function setMeta(db: Db, key: string, value: string): void {
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(
    key,
    value,
  );
}
