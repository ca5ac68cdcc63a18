/**
 * The metadata port: the SQL database that holds the service's rows (files, permissions, pre-generated IDs, the
 * change log, resumable sessions, push channels and their outbox, run-time settings). One backend each: the data
 * folder's SQLite (`sqlite-metadata.ts`, the default) and PostgreSQL (`postgres-metadata.ts`, loaded only when
 * `--database postgres://…` is configured). The stores above it keep one set of rules and one set of SQL, written in
 * what both dialects share; the few places where they differ ask {@link MetadataDb.dialect}.
 *
 * Statements take positional `?` parameters (the PostgreSQL backend numbers them). Every call is asynchronous; a
 * transaction's body may only talk to the database (no other I/O), so a transaction is as short as its SQL.
 */

/** A value bound to a `?` parameter. */
export type SqlValue = string | number | null;

/** The SQL dialects the stores are written for. */
export type Dialect = 'sqlite' | 'postgres';

/** A database of the service's rows. */
export interface MetadataDb {
  readonly dialect: Dialect;
  /** Statements sent so far (round trips, over PostgreSQL): `GET /__admin/memory` reports it for the benchmarks. */
  readonly statements: number;
  /** Every row the statement returns. */
  all<T>(sql: string, ...params: SqlValue[]): Promise<T[]>;
  /** The first row the statement returns, if any. */
  get<T>(sql: string, ...params: SqlValue[]): Promise<T | undefined>;
  /** Runs a statement; returns how many rows it changed. */
  run(sql: string, ...params: SqlValue[]): Promise<number>;
  /**
   * Runs `fn` in a transaction and returns its result, or rolls back and rethrows. Inside another transaction of
   * the same async context it is a savepoint, so a failing inner call undoes only its own changes.
   */
  transaction<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * Inside a transaction: waits until no other transaction, on any node, holds `key`, and holds it until this one
   * ends (PostgreSQL's transaction-level advisory lock). SQLite runs one transaction at a time: nothing to wait for.
   */
  lock(key: string): Promise<void>;
  /**
   * An exclusive lock on `key` across nodes, held (outside any transaction) until the returned release is called, or
   * its node dies. Over SQLite (one node, whose callers already queue per key) it is granted at once.
   */
  hold(key: string): Promise<() => Promise<void>>;
  /** As {@link MetadataDb.hold}, without waiting: undefined when another node holds `key` now. */
  tryHold(key: string): Promise<(() => Promise<void>) | undefined>;
  /** Tells every node's {@link MetadataDb.listen} of `topic` (this one's too) `payload`; best effort, at once. */
  notify(topic: string, payload: string): Promise<void>;
  /** Hears `topic`'s messages from every node; returns a function that stops listening. */
  listen(topic: string, handler: (payload: string) => void): () => void;
  /** Group commit, where the backend has it (SQLite: one WAL write for a batch's calls); undefined otherwise. */
  readonly group: GroupCommitPort | undefined;
  /** Closes the connections. */
  close(): Promise<void>;
}

/** A backend's group commit: between `begin` and `commit`, transactions are savepoints of one transaction. */
export interface GroupCommitPort {
  /** True while a group or any transaction is open. */
  readonly busy: boolean;
  begin(): void;
  /** Commits the group once no transaction of it is still running. */
  commit(): Promise<void>;
  rollback(): void;
}

/** Thrown by a backend whose text cannot hold what a statement binds (U+0000 in PostgreSQL); answered 400. */
export class UnstorableText extends Error {
  constructor(cause: unknown) {
    super('Text with the NUL character (U+0000) cannot be stored or searched.', { cause });
    this.name = 'UnstorableText';
  }
}

/** Thrown by a backend when a statement breaks a unique constraint (a lost race for a key). */
export class UniqueViolation extends Error {
  constructor(cause: unknown) {
    super('a row with that key exists already', { cause });
    this.name = 'UniqueViolation';
  }
}
