/**
 * The schema, versioned: each dialect's list of migrations, applied in order inside one transaction that holds the
 * `schema` lock, so nodes that start at once over one PostgreSQL migrate it once. The version is kept in `meta`.
 * A database whose version is newer than this code knows is refused at start: an older node must not write rows it
 * does not understand.
 *
 * SQLite's first version is the schema data folders had before versions were kept (every statement `IF NOT
 * EXISTS`), so an existing folder opens unchanged.
 */
import type { Dialect, MetadataDb } from './metadata-port.ts';

const SQLITE_V1 = `
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
CREATE TABLE IF NOT EXISTS push_outbox (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  queue_key TEXT NOT NULL,
  message TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS push_outbox_channel ON push_outbox (queue_key, seq);
CREATE TABLE IF NOT EXISTS push_channels (
  project TEXT NOT NULL,
  id TEXT NOT NULL,
  kind TEXT NOT NULL,
  file_id TEXT,
  resource_id TEXT NOT NULL,
  resource_uri TEXT NOT NULL,
  address TEXT NOT NULL,
  token TEXT,
  expiration INTEGER NOT NULL,
  owner_email TEXT NOT NULL,
  service_account INTEGER NOT NULL,
  last_message_number INTEGER NOT NULL,
  PRIMARY KEY (project, id)
);
CREATE INDEX IF NOT EXISTS push_channels_file ON push_channels (file_id);
CREATE INDEX IF NOT EXISTS push_channels_owner ON push_channels (kind, owner_email);
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
CREATE INDEX IF NOT EXISTS push_user_changes_seq ON push_user_changes (email, seq)
`;

/**
 * PostgreSQL's first version: the same tables. Numbers are BIGINT (the `pg` backend reads them back as numbers),
 * `user` is quoted (a reserved word there), and permissions get a serial `num` for the order SQLite's rowid gives.
 */
const POSTGRES_V1 = `
CREATE TABLE files (
  num BIGSERIAL PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  mime_type TEXT NOT NULL,
  description TEXT,
  original_filename TEXT,
  parents TEXT NOT NULL DEFAULT '[]',
  size BIGINT,
  md5 TEXT,
  blob TEXT,
  created_time BIGINT NOT NULL,
  modified_time BIGINT NOT NULL,
  trashed INTEGER NOT NULL DEFAULT 0,
  version BIGINT NOT NULL,
  owner TEXT NOT NULL
);
CREATE INDEX files_owner ON files (owner);
CREATE INDEX files_blob ON files (blob);
CREATE TABLE permissions (
  num BIGSERIAL,
  file_id TEXT NOT NULL,
  id TEXT NOT NULL,
  type TEXT NOT NULL,
  role TEXT NOT NULL,
  email TEXT,
  domain TEXT,
  PRIMARY KEY (file_id, id)
);
CREATE INDEX permissions_email ON permissions (email);
CREATE INDEX permissions_domain ON permissions (domain);
CREATE INDEX permissions_grantee ON permissions (file_id, type, email);
CREATE TABLE generated_ids (
  id TEXT PRIMARY KEY,
  "user" TEXT NOT NULL,
  used INTEGER NOT NULL DEFAULT 0,
  created BIGINT NOT NULL
);
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  "user" TEXT NOT NULL,
  client TEXT NOT NULL,
  target_file_id TEXT,
  metadata TEXT NOT NULL,
  query TEXT NOT NULL,
  content_type TEXT NOT NULL,
  declared_length BIGINT,
  total BIGINT,
  created BIGINT NOT NULL,
  last_activity BIGINT NOT NULL,
  state TEXT NOT NULL,
  result TEXT
);
CREATE TABLE changes (
  seq BIGSERIAL PRIMARY KEY,
  file_id TEXT NOT NULL,
  removed INTEGER NOT NULL,
  time BIGINT NOT NULL
);
CREATE INDEX changes_file ON changes (file_id);
CREATE TABLE push_outbox (
  seq BIGSERIAL PRIMARY KEY,
  queue_key TEXT NOT NULL,
  message TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX push_outbox_channel ON push_outbox (queue_key, seq);
CREATE TABLE push_channels (
  project TEXT NOT NULL,
  id TEXT NOT NULL,
  kind TEXT NOT NULL,
  file_id TEXT,
  resource_id TEXT NOT NULL,
  resource_uri TEXT NOT NULL,
  address TEXT NOT NULL,
  token TEXT,
  expiration BIGINT NOT NULL,
  owner_email TEXT NOT NULL,
  service_account INTEGER NOT NULL,
  last_message_number BIGINT NOT NULL,
  PRIMARY KEY (project, id)
);
CREATE INDEX push_channels_file ON push_channels (file_id);
CREATE INDEX push_channels_owner ON push_channels (kind, owner_email);
CREATE TABLE push_audience (
  file_id TEXT NOT NULL,
  email TEXT NOT NULL,
  PRIMARY KEY (file_id, email)
);
CREATE TABLE push_user_changes (
  email TEXT NOT NULL,
  file_id TEXT NOT NULL,
  seq BIGINT NOT NULL,
  removed INTEGER NOT NULL,
  time BIGINT NOT NULL,
  PRIMARY KEY (email, file_id)
);
CREATE INDEX push_user_changes_seq ON push_user_changes (email, seq)
`;

/**
 * Version 2: what `/__admin` changes at run time, kept with the rows so every node over one database follows it
 * (`store/run-time-settings.ts`): tokens issued or revoked (`grant_json` NULL: revoked), scheduled faults.
 */
const V2 = (serial: string) => `
CREATE TABLE run_time_tokens (
  token TEXT PRIMARY KEY,
  grant_json TEXT
);
CREATE TABLE admin_faults (
  id ${serial},
  spec TEXT NOT NULL,
  skip INTEGER NOT NULL,
  times INTEGER NOT NULL,
  hits INTEGER NOT NULL DEFAULT 0
)
`;

/**
 * Version 3: the newest request seen for a resumable session, on any node (`store/sessions.ts`'s lock: the newest
 * request wins, also when the older one runs on another node); when a push message that failed may be tried again
 * (`push/delivery.ts`: any node may take the next attempt).
 */
const V3 = (integer: string) => `
ALTER TABLE sessions ADD COLUMN newest_arrival ${integer};
ALTER TABLE push_outbox ADD COLUMN not_before ${integer} NOT NULL DEFAULT 0
`;

/**
 * Version 4: permission IDs from the identity provider (`Principal.permissionId`: its `sub`). A session keeps its
 * owner's (NULL in a session of version 3: the address's, as before); `users` remembers, per address, the ID of the
 * person the service last saw with it, so a share by address gets the ID that person's `about` shows.
 */
const V4 = `
ALTER TABLE sessions ADD COLUMN permission_id TEXT;
CREATE TABLE users (
  email TEXT PRIMARY KEY,
  permission_id TEXT NOT NULL
)
`;

/**
 * Version 5: a file's stored content is named by its content key, the object's path under the content root
 * (`content/<name>` on disk and in the bucket). Content written before kept its place under `blobs/`, so its rows
 * get that directory in their key: old objects are served where they are, nothing is copied (an S3 object cannot
 * be renamed, and a multipart upload in progress keeps the key it was begun with).
 */
const V5 = (renameIndex: string) => `
ALTER TABLE files RENAME COLUMN blob TO content_key;
${renameIndex}UPDATE files SET content_key = 'blobs/' || content_key WHERE content_key IS NOT NULL
`;

/** Each dialect's migrations, oldest first; a migration's index + 1 is the version it brings the schema to. */
const MIGRATIONS: Readonly<Record<Dialect, readonly string[]>> = {
  sqlite: [SQLITE_V1, V2('INTEGER PRIMARY KEY AUTOINCREMENT'), V3('INTEGER'), V4, V5('')],
  postgres: [
    POSTGRES_V1,
    V2('BIGSERIAL PRIMARY KEY'),
    V3('BIGINT'),
    V4,
    V5('ALTER INDEX files_blob RENAME TO files_content_key;\n'),
  ],
};

/** Thrown when the database was migrated by a newer version of the service. */
export class SchemaTooNewError extends Error {
  constructor(found: number, known: number) {
    super(
      `the database's schema is version ${found}, newer than this store-service knows (${known}): ` +
        'upgrade this node to the version that migrated it',
    );
    this.name = 'SchemaTooNewError';
  }
}

/** Brings the schema up to this code's version; refuses a newer one. */
export async function migrate(db: MetadataDb): Promise<void> {
  const steps = MIGRATIONS[db.dialect];
  await db.transaction(async () => {
    await db.lock('schema');
    await db.run('CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
    const row = await db.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', 'schemaVersion');
    const found = Number(row?.value ?? '0');
    if (found > steps.length) throw new SchemaTooNewError(found, steps.length);
    for (let version = found; version < steps.length; version++) {
      for (const statement of steps[version].split(/;\s*\n/)) {
        if (statement.trim() !== '') await db.run(statement);
      }
    }
    if (found !== steps.length) {
      await db.run(
        'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
        'schemaVersion',
        String(steps.length),
      );
    }
  });
}

/** Reads a `meta` value (run-time settings kept with the rows: the admin clock's offset). */
export async function getMeta(db: MetadataDb, key: string): Promise<string | undefined> {
  return (await db.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', key))?.value;
}

/** Writes a `meta` value. */
export async function setMeta(db: MetadataDb, key: string, value: string): Promise<void> {
  await db.run(
    'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    key,
    value,
  );
}
