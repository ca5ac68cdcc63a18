/**
 * The metadata port over PostgreSQL (`--database postgres://…`), for several stateless nodes over one database.
 * Loaded only when configured, so the default service never loads `pg`.
 *
 * A transaction holds one pooled connection, found again by its async context (savepoints inside it); statements
 * outside a transaction take any connection. Keys are locked with transaction-level advisory locks, so a lock is
 * held across nodes and goes with the transaction, also when its node dies (the connection closes).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import { checkDatabaseWrite } from '../storage-faults.ts';
import { type MetadataDb, type SqlValue, UniqueViolation, UnstorableText } from './metadata-port.ts';
import { migrate } from './migrations.ts';
import { AdvisoryLocks, Signals } from './postgres-signals.ts';

/** BIGINT and NUMERIC (sums) as numbers: sizes and times stay far below 2^53. */
const INT8 = 20;
const NUMERIC = 1700;
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary'): (value: string) => unknown {
    if (oid === INT8 || oid === NUMERIC) return (value: string) => Number(value);
    const builtin = pg.types.getTypeParser as (oid: number, format?: string) => (value: string) => unknown;
    return builtin(oid, format);
  },
};

/** `?` placeholders numbered as `$1, $2, …` (the stores' SQL has no `?` inside string literals). */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

interface TxScope {
  readonly client: pg.PoolClient;
  depth: number;
}

class PostgresMetadata implements MetadataDb {
  readonly dialect = 'postgres' as const;
  statements = 0;
  readonly group = undefined;
  readonly #pool: pg.Pool;
  readonly #scope = new AsyncLocalStorage<TxScope>();
  readonly #sql = new Map<string, string>();
  readonly #locks: AdvisoryLocks;
  readonly #signals: Signals;

  constructor(pool: pg.Pool, url: string) {
    this.#pool = pool;
    this.#locks = new AdvisoryLocks(url);
    this.#signals = new Signals(url);
  }

  async #query(sql: string, params: SqlValue[]): Promise<{ rows: unknown[]; rowCount: number | null }> {
    let text = this.#sql.get(sql);
    if (text === undefined) {
      text = numbered(sql);
      this.#sql.set(sql, text);
    }
    const runner = this.#scope.getStore()?.client ?? this.#pool;
    this.statements++;
    try {
      const result: pg.QueryResult = await runner.query(text, params);
      return { rows: result.rows as unknown[], rowCount: result.rowCount };
    } catch (e) {
      throw translate(e);
    }
  }

  async #connect(): Promise<pg.PoolClient> {
    try {
      return await this.#pool.connect();
    } catch (e) {
      throw translate(e);
    }
  }

  async all<T>(sql: string, ...params: SqlValue[]): Promise<T[]> {
    return (await this.#query(sql, params)).rows as T[];
  }

  async get<T>(sql: string, ...params: SqlValue[]): Promise<T | undefined> {
    return (await this.#query(sql, params)).rows[0] as T | undefined;
  }

  async run(sql: string, ...params: SqlValue[]): Promise<number> {
    return (await this.#query(sql, params)).rowCount ?? 0;
  }

  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    const scope = this.#scope.getStore();
    if (scope) return this.#savepoint(scope, fn);
    this.statements += 2;
    // An injected database fault (`--admin`) fails the transaction before it writes, as a full disk would.
    checkDatabaseWrite();
    const client = await this.#connect();
    let broken = false;
    try {
      await client.query('BEGIN');
      try {
        const result = await this.#scope.run({ client, depth: 0 }, fn);
        await client.query('COMMIT');
        return result;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => (broken = true));
        throw translate(e);
      }
    } catch (e) {
      broken ||= isConnectionError(e);
      throw e;
    } finally {
      // A connection that failed mid-transaction is not given to the next caller.
      client.release(broken);
    }
  }

  async #savepoint<T>(scope: TxScope, fn: () => Promise<T>): Promise<T> {
    const name = `s${++scope.depth}`;
    this.statements += 2;
    await scope.client.query(`SAVEPOINT ${name}`);
    try {
      const result = await fn();
      await scope.client.query(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (e) {
      await scope.client.query(`ROLLBACK TO SAVEPOINT ${name}`);
      throw translate(e);
    } finally {
      scope.depth--;
    }
  }

  async lock(key: string): Promise<void> {
    if (!this.#scope.getStore()) throw new Error(`lock(${JSON.stringify(key)}) needs a transaction`);
    await this.#query('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [key]);
  }

  async hold(key: string): Promise<() => Promise<void>> {
    // Its timeout, the lock, and its release.
    this.statements += 3;
    try {
      // A request waits for another node's request on the same key at most this long (then 503, and it retries).
      return await this.#locks.hold(key, 60_000);
    } catch (e) {
      throw translate(e);
    }
  }

  async tryHold(key: string): Promise<(() => Promise<void>) | undefined> {
    this.statements += 2;
    try {
      return await this.#locks.tryHold(key);
    } catch (e) {
      throw translate(e);
    }
  }

  async notify(topic: string, payload: string): Promise<void> {
    this.statements++;
    try {
      await this.#signals.notify(this.#pool, topic, payload);
    } catch (e) {
      throw translate(e);
    }
  }

  listen(topic: string, handler: (payload: string) => void): () => void {
    return this.#signals.listen(topic, handler);
  }

  async close(): Promise<void> {
    await this.#signals.close();
    await this.#locks.close();
    await this.#pool.end();
  }
}

/**
 * PostgreSQL's failures in the service's terms: a lost race for a key; a full disk (`53100`, answered as SQLite's
 * `SQLITE_FULL`); the database away (refused, reset or timed-out connections, a shutdown: `DB_UNAVAILABLE`). The last
 * two are storage failures, answered `503` with `Retry-After` (`store/storage-failure.ts`).
 */
function translate(e: unknown): unknown {
  if (e instanceof UniqueViolation) return e;
  const code = (e as { code?: unknown }).code;
  if (code === '23505') return new UniqueViolation(e);
  // Text with U+0000 that reached the database unchecked (a search for it): no row can hold it, so none matches.
  if (code === '22021') return new UnstorableText(e);
  // A lock another node held past its wait: the caller answers 503 and the client retries.
  if (code === '55P03')
    return Object.assign(new Error('a lock was held by another node too long', { cause: e }), { code: 'DB_BUSY' });
  if (code === '53100')
    return Object.assign(new Error('the database is out of disk space', { cause: e }), { code: 'SQLITE_FULL' });
  if (isConnectionError(e)) {
    return Object.assign(new Error(`the database is unreachable: ${(e as Error).message}`, { cause: e }), {
      code: 'DB_UNAVAILABLE',
    });
  }
  return e;
}

function isConnectionError(e: unknown): boolean {
  const code = (e as { code?: unknown }).code;
  if (code === 'DB_UNAVAILABLE') return true;
  if (typeof code === 'string') return code.startsWith('08') || code.startsWith('57P') || /^E[A-Z]+$/.test(code);
  // pg's own errors carry no code: a pool that timed out connecting, a connection that ended or broke mid-query.
  return /timeout|terminated|Connection|connect/i.test((e as Error).message ?? '');
}

/** Why a database cannot be used, in one line (the URL's password left out). */
class DatabaseUnavailableError extends Error {
  constructor(url: string, cause: unknown) {
    const where = url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
    const why = cause instanceof Error ? cause.message : String(cause);
    super(`cannot use the database ${where}: ${why}`, { cause });
    this.name = 'DatabaseUnavailableError';
  }
}

/** Connects to `url`, checks it answers, and migrates its schema (once, however many nodes start together). */
export async function openPostgresMetadata(url: string): Promise<MetadataDb> {
  const pool = new pg.Pool({
    connectionString: url,
    types,
    max: 16,
    // Every wait has a limit: a database that does not answer fails the request (503) instead of holding it.
    connectionTimeoutMillis: 5000,
    query_timeout: 30_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle connection that breaks (the server restarts) is dropped by the pool; it must not crash the node.
  pool.on('error', (e) => console.error('store-service: a database connection failed:', e.message));
  const metadata = new PostgresMetadata(pool, url);
  try {
    await metadata.get('SELECT 1 AS one');
    await migrate(metadata);
  } catch (e) {
    await metadata.close().catch(() => undefined);
    if ((e as Error).name === 'SchemaTooNewError') throw e;
    throw new DatabaseUnavailableError(url, e);
  }
  return metadata;
}
