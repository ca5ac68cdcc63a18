/**
 * Resumable upload sessions: their rows in the `sessions` table and the lock that keeps one request at a time on a
 * session. Their bytes on disk are `session-bytes.ts`'s alone; a session that ends without completing (cancelled,
 * expired) is handed to `released` so its bytes go too.
 */
import type { Clock } from '../clock.ts';
import type { MetadataDb } from '../metadata/metadata-port.ts';
import { greatest } from '../metadata/sql-dialect.ts';

/** The signal that tells every node a newer request wants a session (`arrival id`). */
const SESSION_CLAIMS = 'session_claims';

/** A session as stored. */
export interface SessionRow {
  readonly id: string;
  /** Owner e-mail and client of the token that started it. */
  readonly user: string;
  /** The owner's permission ID (`Principal.permissionId`); a session of schema 3 has none: the address's. */
  readonly permissionId: string | undefined;
  readonly client: string;
  /** Set for an update session (`PUT|PATCH /upload/store/v3/files/<id>`). */
  readonly targetFileId: string | undefined;
  /** The metadata JSON sent at start (validated). */
  readonly metadata: Record<string, unknown>;
  /** The start request's query string: `fields`, `ocrLanguage`, `addParents`… apply at completion. */
  readonly query: string;
  /** MIME type of the media (X-Upload-Content-Type, metadata, or octet-stream). */
  readonly contentType: string;
  readonly declaredLength: number | undefined;
  /** Total size once a request has told it. */
  readonly total: number | undefined;
  readonly created: number;
  readonly lastActivity: number;
  readonly state: 'open' | 'complete' | 'cancelled';
  /** The file resource (unfiltered) the completion answered with. */
  readonly result: Record<string, unknown> | undefined;
}

interface DbSession {
  id: string;
  user: string;
  permission_id: string | null;
  client: string;
  target_file_id: string | null;
  metadata: string;
  query: string;
  content_type: string;
  declared_length: number | null;
  total: number | null;
  created: number;
  last_activity: number;
  state: SessionRow['state'];
  result: string | null;
}

function toRow(r: DbSession): SessionRow {
  return {
    id: r.id,
    user: r.user,
    permissionId: r.permission_id ?? undefined,
    client: r.client,
    targetFileId: r.target_file_id ?? undefined,
    metadata: JSON.parse(r.metadata) as Record<string, unknown>,
    query: r.query,
    contentType: r.content_type,
    declaredLength: r.declared_length ?? undefined,
    total: r.total ?? undefined,
    created: r.created,
    lastActivity: r.last_activity,
    state: r.state,
    result: r.result === null ? undefined : (JSON.parse(r.result) as Record<string, unknown>),
  };
}

/** A request that wants a session's lock, as the lock sees it. */
export interface LockClaim {
  /** When the transport received it, as a rising number (`ApiRequest.arrival`): a higher one is newer. */
  readonly arrival: number;
  /** Ends it: its body stops, and it is answered (503) before its connection closes. */
  end(): void;
}

/** A request ended because a newer one for the same session arrived; answered 503 (`supersededError`), then closed. */
class SupersededError extends Error {
  constructor(id: string) {
    super(`a newer request for upload session ${id} arrived`);
    this.name = 'SupersededError';
  }
}

/** The rows and locks of resumable upload sessions (the uploader's own `SessionStore` is another thing). */
export class UploadSessionRows {
  readonly #db: MetadataDb;
  readonly #clock: Clock;
  readonly #ttlMs: number;
  readonly #released: (id: string) => Promise<void>;
  readonly #locks = new Map<string, Promise<unknown>>();
  /** The request that holds a session's lock. */
  readonly #holders = new Map<string, LockClaim>();
  /** The newest arrival among a session's requests (kept while the session is open). */
  readonly #newest = new Map<string, number>();

  /** `released(id)` is told when a session ends without completing (cancelled, expired): its bytes can go. */
  constructor(db: MetadataDb, clock: Clock, ttlMs: number, released: (id: string) => Promise<void>) {
    this.#db = db;
    this.#clock = clock;
    this.#ttlMs = ttlMs;
    this.#released = released;
    db.listen(SESSION_CLAIMS, (payload) => {
      const space = payload.indexOf(' ');
      this.#heard(payload.slice(space + 1), Number(payload.slice(0, space)), true);
    });
  }

  /** Creates an open session with no bytes. */
  async create(row: Omit<SessionRow, 'created' | 'lastActivity' | 'state' | 'result' | 'total'>): Promise<void> {
    const now = this.#clock.now();
    await this.#db.run(
      `INSERT INTO sessions (id, "user", permission_id, client, target_file_id, metadata, query, content_type,
         declared_length, total, created, last_activity, state, result)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, 'open', NULL)`,
      row.id,
      row.user,
      row.permissionId ?? null,
      row.client,
      row.targetFileId ?? null,
      JSON.stringify(row.metadata),
      row.query,
      row.contentType,
      row.declaredLength ?? null,
      now,
      now,
    );
  }

  /** A session by id, or undefined when unknown, cancelled or expired (an expired one is dropped here). */
  async get(id: string): Promise<SessionRow | undefined> {
    const r = await this.#db.get<DbSession>('SELECT * FROM sessions WHERE id = ?', id);
    if (!r) return undefined;
    const row = toRow(r);
    if (row.state === 'cancelled') return undefined;
    if (this.#clock.now() - row.lastActivity > this.#ttlMs) {
      await this.#drop(id, 'cancelled');
      return undefined;
    }
    return row;
  }

  /** Records activity (resets the inactivity timer). */
  async touch(id: string): Promise<void> {
    await this.#db.run('UPDATE sessions SET last_activity = ? WHERE id = ?', this.#clock.now(), id);
  }

  /** Records the total size once known. */
  async setTotal(id: string, total: number): Promise<void> {
    await this.#db.run('UPDATE sessions SET total = ? WHERE id = ?', total, id);
  }

  /** Marks a session complete with the resource it answered (its bytes are stored content by now). */
  async complete(id: string, result: Record<string, unknown>): Promise<void> {
    await this.#db.run(
      `UPDATE sessions SET state = 'complete', result = ?, last_activity = ? WHERE id = ?`,
      JSON.stringify(result),
      this.#clock.now(),
      id,
    );
    this.#newest.delete(id);
  }

  /** Cancels a session (`DELETE` on the session URI, or its completion refused); its bytes are released. */
  cancel(id: string): Promise<void> {
    return this.#drop(id, 'cancelled');
  }

  async #drop(id: string, state: 'cancelled'): Promise<void> {
    await this.#db.run('UPDATE sessions SET state = ? WHERE id = ?', state, id);
    this.#newest.delete(id);
    await this.#released(id);
  }

  /** The open sessions not yet expired, oldest first, of one user or of all (`GET /__admin/sessions`). */
  async listOpen(user: string | undefined): Promise<SessionRow[]> {
    const since = this.#clock.now() - this.#ttlMs;
    const rows =
      user === undefined
        ? await this.#db.all<DbSession>(
            `SELECT * FROM sessions WHERE state = 'open' AND last_activity >= ? ORDER BY created`,
            since,
          )
        : await this.#db.all<DbSession>(
            `SELECT * FROM sessions WHERE state = 'open' AND last_activity >= ? AND "user" = ? ORDER BY created`,
            since,
            user,
          );
    return rows.map(toRow);
  }

  /** Ids of the open sessions (startup recovery of their bytes). */
  async openIds(): Promise<string[]> {
    return (await this.#db.all<{ id: string }>(`SELECT id FROM sessions WHERE state = 'open'`)).map((r) => r.id);
  }

  /**
   * Runs `fn` with the session locked, so requests on one session never interleave their writes, on this node or
   * any other over the same database. The newest request wins: a client sends one request at a time per session,
   * so a newer one means it gave up on the older (a stall, a cut it did not see, a status query after a timeout).
   * The older holder is ended at once (its body stops, it keeps the whole blocks it wrote, releases the lock and is
   * answered 503) — on another node through a signal —, so the newer one is answered from what is stored then
   * (spec §3.1), and an older request that reaches the lock later is ended without writing a byte. Arrival is when
   * a transport received the request (`ApiRequest.arrival`, comparable across nodes), so a request held up before
   * its handler (a slow service, an admin delay) stays older than one its client sent after giving up on it.
   */
  async withLock<T>(id: string, claim: LockClaim | undefined, fn: () => Promise<T>): Promise<T> {
    const superseded = () => claim !== undefined && claim.arrival < (this.#newest.get(id) ?? -Infinity);
    if (claim) {
      await this.#claim(id, claim.arrival);
      if (superseded()) return this.#end(id, claim);
    }
    const hold = async () => {
      if (superseded()) return this.#end(id, claim!);
      // Another node's request on this session ends (it heard the claim) before this one writes.
      const release = await this.#db.hold(`session\n${id}`);
      try {
        // A newer request may have claimed the session on another node while this one waited.
        if (claim && this.#db.dialect !== 'sqlite') await this.#readNewest(id);
        if (superseded()) return this.#end(id, claim!);
        if (claim) this.#holders.set(id, claim);
        return await fn();
      } finally {
        await release();
      }
    };
    const run = (this.#locks.get(id) ?? Promise.resolve()).then(hold, hold);
    const tail = run.catch(() => undefined);
    this.#locks.set(id, tail);
    try {
      return await run;
    } finally {
      if (claim && this.#holders.get(id) === claim) this.#holders.delete(id);
      if (this.#locks.get(id) === tail) this.#locks.delete(id);
    }
  }

  /**
   * Records that a request of `arrival` wants the session: here, and over a shared database in the session's row
   * (the newest on any node wins) with a signal that ends an older holder on whichever node runs it.
   */
  async #claim(id: string, arrival: number): Promise<void> {
    this.#heard(id, arrival);
    if (this.#db.dialect === 'sqlite') return;
    const row = await this.#db.get<{ newest_arrival: number }>(
      `UPDATE sessions SET newest_arrival = ${greatest(this.#db.dialect, 'COALESCE(newest_arrival, 0)', '?')}
       WHERE id = ? RETURNING newest_arrival`,
      arrival,
      id,
    );
    if (row) this.#heard(id, row.newest_arrival);
    if (row?.newest_arrival === arrival) await this.#db.notify(SESSION_CLAIMS, `${arrival} ${id}`);
  }

  /** Takes the newest arrival the session's row knows of (a shared database). */
  async #readNewest(id: string): Promise<void> {
    const row = await this.#db.get<{ newest_arrival: number | null }>(
      'SELECT newest_arrival FROM sessions WHERE id = ?',
      id,
    );
    if (row?.newest_arrival != null) this.#heard(id, row.newest_arrival);
  }

  /** A request of `arrival` wants session `id` (here, or on another node: `signal`): an older holder ends. */
  #heard(id: string, arrival: number, signal = false): void {
    if (arrival <= (this.#newest.get(id) ?? -Infinity)) return;
    // Of other nodes' requests only those on sessions this node has requests for are remembered: a later request
    // here reads the row anyway.
    if (!signal || this.#locks.has(id) || this.#newest.has(id)) this.#newest.set(id, arrival);
    const holder = this.#holders.get(id);
    if (holder && holder.arrival < arrival) holder.end();
  }

  #end(id: string, claim: LockClaim): never {
    claim.end();
    throw new SupersededError(id);
  }
}
