/**
 * What nodes over one PostgreSQL database tell each other and hold together, outside transactions: locks held for
 * as long as a request runs (session-level advisory locks, each on a connection of its own, so a lock goes with its
 * node when the node dies), and messages (LISTEN/NOTIFY on one connection per node, opened again after the
 * database comes back).
 */
import pg from 'pg';

/** Locks held across nodes. */
export class AdvisoryLocks {
  readonly #pool: pg.Pool;

  constructor(url: string) {
    // A lock holds its connection while its request runs; the pool bounds how many a node holds at once.
    this.#pool = new pg.Pool({
      connectionString: url,
      max: 64,
      connectionTimeoutMillis: 5000,
      idleTimeoutMillis: 10_000,
    });
    this.#pool.on('error', (e) => console.error('store-service: a lock connection failed:', e.message));
  }

  /** Waits (up to `timeoutMs`) until no other node holds `key`, then holds it until the release is called. */
  async hold(key: string, timeoutMs: number): Promise<() => Promise<void>> {
    const client = await this.#pool.connect();
    try {
      await client.query(`SET lock_timeout = ${Math.round(timeoutMs)}`);
      await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [key]);
    } catch (e) {
      client.release(true);
      throw e;
    }
    return this.#releaser(client, key);
  }

  /** Holds `key` if no other node does now; undefined otherwise. */
  async tryHold(key: string): Promise<(() => Promise<void>) | undefined> {
    const client = await this.#pool.connect();
    let got = false;
    try {
      const row = await client.query<{ got: boolean }>('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS got', [
        key,
      ]);
      got = row.rows[0]?.got;
    } catch (e) {
      client.release(true);
      throw e;
    }
    if (!got) {
      client.release();
      return undefined;
    }
    return this.#releaser(client, key);
  }

  #releaser(client: pg.PoolClient, key: string): () => Promise<void> {
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      try {
        await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key]);
        client.release();
      } catch {
        // The connection broke: closing it frees the lock.
        client.release(true);
      }
    };
  }

  close(): Promise<void> {
    return this.#pool.end();
  }
}

/** LISTEN/NOTIFY between nodes, on one connection of this node's. */
export class Signals {
  readonly #url: string;
  readonly #handlers = new Map<string, Set<(payload: string) => void>>();
  #client: pg.Client | undefined;
  #connecting: Promise<void> | undefined;
  #closed = false;
  #retry: NodeJS.Timeout | undefined;

  constructor(url: string) {
    this.#url = url;
  }

  /** PostgreSQL folds unquoted names; topics are quoted identifiers of our own. */
  static #channel(topic: string): string {
    return `"store_${topic.replace(/[^a-z0-9_]/gi, '_')}"`;
  }

  async #connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.#url, connectionTimeoutMillis: 5000 });
    client.on('notification', (n) => {
      const topic = n.channel.replace(/^store_/, '');
      for (const handler of [...(this.#handlers.get(topic) ?? [])]) handler(n.payload ?? '');
    });
    client.on('error', (e) => {
      console.error('store-service: the signal connection failed:', e.message);
      this.#lost(client);
    });
    client.on('end', () => this.#lost(client));
    await client.connect();
    for (const topic of this.#handlers.keys()) await client.query(`LISTEN ${Signals.#channel(topic)}`);
    this.#client = client;
  }

  #lost(client: pg.Client): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    if (this.#closed) return;
    // The database went away: listen again once it is back (what was sent meanwhile is lost, as NOTIFY's is).
    this.#retry = setTimeout(() => void this.#ensure().catch(() => this.#lost(client)), 1000);
    this.#retry.unref();
  }

  #ensure(): Promise<void> {
    if (this.#client) return Promise.resolve();
    this.#connecting ??= this.#connect().finally(() => (this.#connecting = undefined));
    return this.#connecting;
  }

  async notify(pool: pg.Pool, topic: string, payload: string): Promise<void> {
    await pool.query('SELECT pg_notify($1, $2)', [`store_${topic.replace(/[^a-z0-9_]/gi, '_')}`, payload]);
  }

  listen(topic: string, handler: (payload: string) => void): () => void {
    let set = this.#handlers.get(topic);
    if (!set) {
      this.#handlers.set(topic, (set = new Set()));
      void this.#ensure()
        .then(() => this.#client?.query(`LISTEN ${Signals.#channel(topic)}`))
        .catch((e: unknown) => console.error('store-service: could not listen for', topic, e));
    }
    set.add(handler);
    return () => void set.delete(handler);
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => undefined);
  }
}
