/** The metadata port's entry: opens the configured backend (SQLite in the data folder unless a database is named). */
import type { MetadataDb } from './metadata-port.ts';
import { openSqliteMetadata } from './sqlite-metadata.ts';

export type { Dialect, MetadataDb, SqlValue } from './metadata-port.ts';
export { UniqueViolation } from './metadata-port.ts';
export { getMeta, setMeta, SchemaTooNewError } from './migrations.ts';

/** Where the rows live: the data folder's SQLite, or a PostgreSQL database by URL. */
export type MetadataSpec = { readonly dataDir: string } | { readonly postgres: string };

/**
 * Opens and migrates the metadata database. The PostgreSQL backend (and its client) is loaded only when named, so
 * a service on its data folder never loads `pg`. Fails with one readable line when the database cannot be used.
 */
export async function openMetadata(spec: MetadataSpec): Promise<MetadataDb> {
  if ('dataDir' in spec) return openSqliteMetadata(spec.dataDir);
  const { openPostgresMetadata } = await import('./postgres-metadata.ts');
  return openPostgresMetadata(spec.postgres);
}
