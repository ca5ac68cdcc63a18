/**
 * The metadata port over the data folder's SQLite database (`<data>/store.db`, WAL), the default backend.
 *
 * better-sqlite3 is synchronous and the service holds one connection, so this backend keeps transactions apart
 * itself: one runs at a time (the others, and every statement from outside it, wait for it to end), and the calls
 * of the one that runs resolve in microtasks. A statement from outside an open transaction never sees or joins that
 * transaction's uncommitted rows.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { checkDatabaseWrite } from '../storage-faults.ts';
import { type GroupCommitPort, type MetadataDb, type SqlValue, UniqueViolation } from './metadata-port.ts';
import { migrate } from './migrations.ts';

/** A compiled statement, as this backend calls it (positional parameters only). */
interface Statement {
  all(...params: SqlValue[]): unknown[];
  get(...params: SqlValue[]): unknown;
  run(...params: SqlValue[]): { changes: number };
}

/** Which transaction an async context runs in (a savepoint's depth inside it). */
interface TxScope {
  readonly id: number;
  depth: number;
}

class SqliteMetadata implements MetadataDb {
  readonly dialect = 'sqlite' as const;
  statements = 0;
  readonly #db: Database.Database;
  readonly #statements = new Map<string, Statement>();
  readonly #scope = new AsyncLocalStorage<TxScope>();
  /** The transaction that runs now, and its end. */
  #current: { readonly scope: TxScope; readonly done: Promise<void> } | undefined;
  #nextId = 1;
  #groupOpen = false;
  readonly #listeners = new Map<string, Set<(payload: string) => void>>();
  readonly group: GroupCommitPort;

  constructor(db: Database.Database) {
    this.#db = db;
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the group port is a view of this backend
    const self = this;
    this.group = {
      get busy() {
        return self.#groupOpen || self.#current !== undefined;
      },
      begin() {
        self.#db.exec('BEGIN');
        self.#groupOpen = true;
      },
      async commit() {
        // The wait and the COMMIT are one step: no transaction can start between them.
        while (self.#current) await self.#current.done;
        self.#groupOpen = false;
        self.#db.exec('COMMIT');
      },
      rollback() {
        self.#groupOpen = false;
        if (self.#db.inTransaction) self.#db.exec('ROLLBACK');
      },
    };
  }

  #prepare(sql: string): Statement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- better-sqlite3's own overloads
      statement = this.#db.prepare(sql) as unknown as Statement;
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  /** The transaction of another async context that runs now, if any: whoever is not in it waits for its end. */
  #other(): Promise<void> | undefined {
    const current = this.#current;
    return current && current.scope !== this.#scope.getStore() ? current.done : undefined;
  }

  async #call<T>(fn: () => T): Promise<T> {
    // Waiting and running are one step (no await between the last check and `fn`): nothing can start in between.
    for (let other = this.#other(); other; other = this.#other()) await other;
    this.statements++;
    try {
      return fn();
    } catch (e) {
      throw translate(e);
    }
  }

  async all<T>(sql: string, ...params: SqlValue[]): Promise<T[]> {
    return this.#call(() => this.#prepare(sql).all(...params) as T[]);
  }

  async get<T>(sql: string, ...params: SqlValue[]): Promise<T | undefined> {
    return this.#call(() => this.#prepare(sql).get(...params) as T | undefined);
  }

  async run(sql: string, ...params: SqlValue[]): Promise<number> {
    return this.#call(() => this.#prepare(sql).run(...params).changes);
  }

  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    const mine = this.#scope.getStore();
    if (mine && this.#current?.scope === mine) return this.#savepoint(mine, fn);
    for (let other = this.#other(); other; other = this.#other()) await other;
    const scope: TxScope = { id: this.#nextId++, depth: 0 };
    let end!: () => void;
    this.#current = { scope, done: new Promise<void>((resolve) => (end = resolve)) };
    try {
      // An injected database fault (`--admin`) fails the transaction before it writes, as a full disk would.
      checkDatabaseWrite();
      // Inside a group commit a transaction is a savepoint of the group's transaction.
      if (this.#groupOpen) return await this.#scope.run(scope, () => this.#savepoint(scope, fn));
      this.#db.exec('BEGIN');
      try {
        const result = await this.#scope.run(scope, fn);
        this.#db.exec('COMMIT');
        return result;
      } catch (e) {
        if (this.#db.inTransaction) this.#db.exec('ROLLBACK');
        throw translate(e);
      }
    } finally {
      this.#current = undefined;
      end();
    }
  }

  async #savepoint<T>(scope: TxScope, fn: () => Promise<T>): Promise<T> {
    const name = `s${++scope.depth}`;
    this.#db.exec(`SAVEPOINT ${name}`);
    try {
      const result = await fn();
      this.#db.exec(`RELEASE ${name}`);
      return result;
    } catch (e) {
      this.#db.exec(`ROLLBACK TO ${name}`);
      this.#db.exec(`RELEASE ${name}`);
      throw translate(e);
    } finally {
      scope.depth--;
    }
  }

  async lock(): Promise<void> {
    // One transaction at a time: whoever holds the transaction holds every key.
  }

  async hold(): Promise<() => Promise<void>> {
    // One node: its callers queue per key themselves.
    return async () => undefined;
  }

  async tryHold(): Promise<() => Promise<void>> {
    return async () => undefined;
  }

  async notify(topic: string, payload: string): Promise<void> {
    for (const handler of [...(this.#listeners.get(topic) ?? [])]) handler(payload);
  }

  listen(topic: string, handler: (payload: string) => void): () => void {
    let set = this.#listeners.get(topic);
    if (!set) this.#listeners.set(topic, (set = new Set()));
    set.add(handler);
    return () => void set.delete(handler);
  }

  async close(): Promise<void> {
    for (let other = this.#other(); other; other = this.#other()) await other;
    this.#db.close();
  }
}

function translate(e: unknown): unknown {
  const code = (e as { code?: unknown }).code;
  if (code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE') return new UniqueViolation(e);
  return e;
}

/** Opens (creating and migrating if needed) `<dataDir>/store.db`. */
export function openSqliteMetadata(dataDir: string): Promise<MetadataDb> {
  return openSqliteFile(join(dataDir, 'store.db'));
}

/** Opens (creating and migrating if needed) a SQLite database file (`:memory:` for one that lives in memory). */
export async function openSqliteFile(file: string): Promise<MetadataDb> {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  // NORMAL in WAL mode survives a process crash (kill -9); only an OS crash could lose the last commits.
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  const metadata = new SqliteMetadata(db);
  await migrate(metadata);
  return metadata;
}
