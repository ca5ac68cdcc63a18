/**
 * The backends the service suites run over, from the environment:
 * - `STORE_TEST_DATABASE=postgres://USER:PASS@HOST:PORT/DB`: every service a test starts gets a database of its own
 *   on that server (created here, named in its data folder so a restart on the same folder finds the same rows), as
 *   every service otherwise gets a fresh SQLite file;
 * - `STORE_TEST_CONTENT=s3://BUCKET` (with the AWS variables naming the endpoint and keys): every service gets a key
 *   prefix of its own in that bucket;
 * - `STORE_TEST_NODES=N`: every service is N nodes over that database and bucket behind a round-robin proxy.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';

/** The PostgreSQL server the suites run over, or undefined for the default SQLite. */
export const TEST_DATABASE = process.env.STORE_TEST_DATABASE || undefined;
/** The bucket the suites keep content in, or undefined for the data folder. */
export const TEST_CONTENT = process.env.STORE_TEST_CONTENT || undefined;
/** How many nodes each service is. */
export const TEST_NODES = Number(process.env.STORE_TEST_NODES || '1');
if (TEST_NODES > 1 && (TEST_DATABASE === undefined || TEST_CONTENT === undefined))
  throw new Error('STORE_TEST_NODES > 1 needs STORE_TEST_DATABASE and STORE_TEST_CONTENT: nodes share them');

/** The content URL of the service on `dataDir` (a prefix of its own), the same one after a restart. */
export function contentFor(dataDir: string): string | undefined {
  if (TEST_CONTENT === undefined) return undefined;
  const marker = join(dataDir, 'test-content.url');
  if (existsSync(marker)) return readFileSync(marker, 'utf8');
  const url = `${TEST_CONTENT.replace(/\/+$/, '')}/t_${randomBytes(6).toString('hex')}`;
  writeFileSync(marker, url);
  return url;
}

/** The database URL of the service on `dataDir`: made on first use, the same one after a restart. */
export async function databaseFor(dataDir: string): Promise<string | undefined> {
  if (TEST_DATABASE === undefined) return undefined;
  const marker = join(dataDir, 'test-database.url');
  if (existsSync(marker)) return readFileSync(marker, 'utf8');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE, connectionTimeoutMillis: 5000 });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_DATABASE);
  url.pathname = `/${name}`;
  writeFileSync(marker, url.href);
  return url.href;
}
