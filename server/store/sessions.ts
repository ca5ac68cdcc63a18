/**
 * Resumable upload sessions: rows in `sessions`, bytes in `<data>/sessions/<id>.part`.
 *
 * The part file is the truth for how many bytes are stored: outside a request it always holds whole 256 KiB
 * blocks (or the session is complete). After a crash a part file may end mid-block; it is cut back to the last
 * whole block the next time the session is used, so a kill -9 loses only the in-flight request's partial block.
 */
import { createReadStream, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { floorToBlock } from 'store-upload-kit/protocol';
import type { Clock } from '../clock.ts';
import type { Db } from '../db.ts';
import type { BlobStore } from './blobs.ts';
import type { FileStore } from './files.ts';
import { Md5Hasher } from './md5.ts';

/** A session as stored. */
export interface SessionRow {
  readonly id: string;
  /** Owner e-mail and client of the token that started it. */
  readonly user: string;
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

/** MD5 of a session's stored bytes, kept in memory between requests (rebuilt from the part after a restart). */
export interface SessionHash {
  hash: Md5Hasher;
  /** How many bytes from the start it has consumed (always the stored size between requests). */
  upTo: number;
}

/** A request holding a session's lock, as another request waiting for it sees it. */
export interface LockHolder {
  /** Ms it has been waiting for a body byte that has not come (0 while receiving or not reading). */
  stalledFor(): number;
  /** Ends it (drops its connection). */
  end(): void;
}

/** The session store. */
export class SessionStore {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly dir: string;
  readonly ttlMs: number;
  readonly #locks = new Map<string, Promise<unknown>>();
  readonly #hashes = new Map<string, SessionHash>();
  /** The request that holds a session's lock. */
  readonly #holders = new Map<string, LockHolder>();

  /** A lock holder stalled this long is ended when another request for the session waits. */
  readonly stalledMs: number;

  constructor(db: Db, clock: Clock, dir: string, ttlMs: number, stalledMs = 1_000) {
    this.stalledMs = stalledMs;
    this.#db = db;
    this.#clock = clock;
    this.dir = dir;
    this.ttlMs = ttlMs;
    mkdirSync(dir, { recursive: true });
  }

  /** Path of a session's part file. */
  partPath(id: string): string {
    return join(this.dir, `${id}.part`);
  }

  /** Blob name a completed session's part is renamed to (lets recovery find it). */
  static blobName(id: string): string {
    return `u-${id}`;
  }

  /** Creates an open session with no bytes. */
  create(row: Omit<SessionRow, 'created' | 'lastActivity' | 'state' | 'result' | 'total'>): SessionRow {
    const now = this.#clock.now();
    this.#db
      .prepare(
        `INSERT INTO sessions (id, user, client, target_file_id, metadata, query, content_type, declared_length, total,
           created, last_activity, state, result) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, 'open', NULL)`,
      )
      .run(row.id, row.user, row.client, row.targetFileId ?? null, JSON.stringify(row.metadata), row.query, row.contentType, row.declaredLength ?? null, now, now);
    return this.get(row.id) as SessionRow;
  }

  /** A session by id, or undefined when unknown, cancelled or expired (an expired one is dropped here). */
  get(id: string): SessionRow | undefined {
    const r = this.#db.prepare('SELECT * FROM sessions WHERE id = ?').get(id) as DbSession | undefined;
    if (!r) return undefined;
    const row = toRow(r);
    if (row.state === 'cancelled') return undefined;
    if (this.#clock.now() - row.lastActivity > this.ttlMs) {
      this.#drop(id, 'cancelled');
      return undefined;
    }
    return row;
  }

  /** Records activity (resets the inactivity timer). */
  touch(id: string): void {
    this.#db.prepare('UPDATE sessions SET last_activity = ? WHERE id = ?').run(this.#clock.now(), id);
  }

  /** Records the total size once known. */
  setTotal(id: string, total: number): void {
    this.#db.prepare('UPDATE sessions SET total = ? WHERE id = ?').run(total, id);
  }

  /** Marks a session complete with the resource it answered; its part is gone (moved or converted). */
  complete(id: string, result: Record<string, unknown>): void {
    this.#db.prepare(`UPDATE sessions SET state = 'complete', result = ?, last_activity = ? WHERE id = ?`).run(JSON.stringify(result), this.#clock.now(), id);
    this.forgetHash(id);
  }

  /** Cancels a session (`DELETE` on the session URI) and removes its bytes. */
  cancel(id: string): void {
    this.#drop(id, 'cancelled');
  }

  #drop(id: string, state: 'cancelled'): void {
    this.#db.prepare('UPDATE sessions SET state = ? WHERE id = ?').run(state, id);
    rmSync(this.partPath(id), { force: true });
    this.forgetHash(id);
  }

  /**
   * Bytes stored for an open session. Cuts a part file that ends mid-block (a crash during a request) back to
   * its last whole block, so the stored size is always what a 308 reports.
   */
  stored(id: string): number {
    const path = this.partPath(id);
    if (!existsSync(path)) return 0;
    const size = statSync(path).size;
    const whole = floorToBlock(size);
    if (whole !== size) truncateSync(path, whole);
    return whole;
  }

  /** The running MD5 of the first `stored` bytes, rebuilt from the part file if memory does not have it. */
  async hashAt(id: string, stored: number): Promise<SessionHash> {
    const known = this.#hashes.get(id);
    if (known && known.upTo === stored) return known;
    known?.hash.dispose();
    const hash = new Md5Hasher();
    if (stored > 0) {
      for await (const chunk of createReadStream(this.partPath(id), { start: 0, end: stored - 1 })) await hash.update(chunk as Buffer);
    }
    const state = { hash, upTo: stored };
    this.#hashes.set(id, state);
    return state;
  }

  /** Forgets an in-memory hash (it consumed bytes that were then not kept). */
  forgetHash(id: string): void {
    this.#hashes.get(id)?.hash.dispose();
    this.#hashes.delete(id);
  }

  /**
   * Runs `fn` with the session locked, so concurrent requests on one session never interleave their writes. A
   * waiting request never waits on a dead one: while it waits, a holder that has gone `stalledMs` without a body
   * byte is ended (its connection dropped; it keeps its whole blocks and releases the lock), so a client cut off
   * can query status and continue (spec §3.1). A holder that is still receiving is never ended by a newcomer (a
   * stale request that arrives late must not kill the live one).
   */
  async withLock<T>(id: string, fn: () => Promise<T>, me?: LockHolder): Promise<T> {
    const previous = this.#locks.get(id) ?? Promise.resolve();
    const hold = () => {
      clearInterval(watch);
      if (me) this.#holders.set(id, me);
      return fn();
    };
    const watch = setInterval(() => {
      const holder = this.#holders.get(id);
      if (holder && holder.stalledFor() >= this.stalledMs) holder.end();
    }, Math.max(10, Math.min(250, this.stalledMs / 4)));
    const run = previous.then(hold, hold);
    const tail = run.catch(() => undefined);
    this.#locks.set(id, tail);
    try {
      return await run;
    } finally {
      clearInterval(watch);
      if (me && this.#holders.get(id) === me) this.#holders.delete(id);
      if (this.#locks.get(id) === tail) this.#locks.delete(id);
    }
  }

  /**
   * Startup recovery of a crash during completion: the part was renamed to its blob but the session was not
   * marked complete. If a file references the blob, the completion committed: mark the session complete; else
   * move the bytes back so the session can finish.
   */
  recover(blobs: BlobStore, files: FileStore): void {
    const open = this.#db.prepare(`SELECT * FROM sessions WHERE state = 'open'`).all() as DbSession[];
    for (const r of open) {
      const part = this.partPath(r.id);
      const blob = blobs.path(SessionStore.blobName(r.id));
      if (existsSync(part) || !existsSync(blob)) continue;
      const row = files.withBlob(SessionStore.blobName(r.id));
      if (row) this.complete(r.id, files.resource(row));
      else renameSync(blob, part);
    }
    // Part files of sessions that are no longer open (or unknown) hold bytes nothing can reach.
    const openIds = new Set(open.map((r) => r.id));
    for (const f of readdirSync(this.dir)) {
      if (!f.endsWith('.part') || !openIds.has(f.slice(0, -'.part'.length))) rmSync(join(this.dir, f), { force: true });
    }
  }
}
