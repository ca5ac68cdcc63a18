/**
 * What `/__admin` changes while the service runs — bearer tokens issued and revoked, the test clock's offset, the
 * storage quota's limit, scheduled faults — kept in the metadata database, so that every node over one database
 * follows it. Each change bumps a version in `meta`; a node re-reads the settings when the version moved:
 * - over PostgreSQL, at the start of every request of an `--admin` node (one small query), so a test's next
 *   request sees the change whichever node it reaches, and every second in any case, so a token revoked on one
 *   node is refused on all within about a second;
 * - over SQLite (one node, which made every change itself), never.
 */
import type { Clock } from '../clock.ts';
import type { TokenGrant } from '../config.ts';
import type { MetadataDb } from '../metadata/metadata-port.ts';
import type { TokenGrants } from '../token-grants.ts';
import type { StorageQuota } from './storage-quota.ts';

/** A fault as stored: its parsed spec (match and action) as JSON and its counters. */
export interface FaultRow {
  readonly id: number;
  readonly spec: string;
  readonly skip: number;
  readonly times: number;
  readonly hits: number;
}

/** What a claim of a fault for one request gave. */
export type FaultClaim = 'apply' | 'skip' | 'gone';

/** The settings a node follows. */
export interface FollowedSettings {
  readonly tokens: TokenGrants;
  readonly clock: Clock;
  readonly quota: StorageQuota;
  /** Hears the faults scheduled now (the node's fault registry keeps them to match requests). */
  readonly faults: (rows: readonly FaultRow[]) => void;
}

const VERSION = 'settingsVersion';

/** The run-time settings of a cluster (or of one node over SQLite). */
export class RunTimeSettings {
  readonly #db: MetadataDb;
  readonly #follow: FollowedSettings;
  #version = -1;
  #timer: NodeJS.Timeout | undefined;

  constructor(db: MetadataDb, follow: FollowedSettings) {
    this.#db = db;
    this.#follow = follow;
  }

  /** True where other nodes may change the settings (a shared PostgreSQL database). */
  get shared(): boolean {
    return this.#db.dialect === 'postgres';
  }

  /** Reads the settings once at start; over PostgreSQL, re-reads them every second until {@link stop}. */
  async start(): Promise<void> {
    if (!this.shared) {
      // One node: faults and run-time tokens end with the process, as they always did.
      await this.#db.transaction(async () => {
        await this.#db.run('DELETE FROM admin_faults');
        await this.#db.run('DELETE FROM run_time_tokens');
        await this.#db.run('DELETE FROM meta WHERE key = ?', 'storageQuotaLimit');
      });
    }
    await this.#load();
    if (this.shared) {
      this.#timer = setInterval(() => {
        this.sync().catch((e: unknown) => console.error('store-service: could not read the shared settings:', e));
      }, 1000);
      this.#timer.unref();
    }
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  /** Re-reads the settings if another node changed them since (nothing to do over SQLite). */
  async sync(): Promise<void> {
    if (!this.shared) return;
    const row = await this.#db.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', VERSION);
    if (Number(row?.value ?? 0) !== this.#version) await this.#load();
  }

  async #load(): Promise<void> {
    const { version, tokens, offset, limit, faults } = await this.#db.transaction(async () => ({
      version: Number((await this.#meta(VERSION)) ?? 0),
      tokens: await this.#db.all<{ token: string; grant_json: string | null }>(
        'SELECT token, grant_json FROM run_time_tokens',
      ),
      offset: Number((await this.#meta('clockOffsetMs')) ?? 0),
      limit: await this.#meta('storageQuotaLimit'),
      faults: await this.#db.all<FaultRow>('SELECT * FROM admin_faults WHERE times > 0 ORDER BY id'),
    }));
    this.#version = version;
    this.#follow.tokens.adopt(
      new Map(tokens.map((t) => [t.token, t.grant_json === null ? null : (JSON.parse(t.grant_json) as TokenGrant)])),
    );
    this.#follow.clock.follow(offset);
    if (limit !== undefined) this.#follow.quota.setLimit(limit === 'none' ? undefined : Number(limit));
    this.#follow.faults(faults);
  }

  async #meta(key: string): Promise<string | undefined> {
    return (await this.#db.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', key))?.value;
  }

  /** Runs a change and bumps the version in one transaction, then takes the new settings here at once. */
  async #change(write: () => Promise<void>): Promise<void> {
    await this.#db.transaction(async () => {
      await write();
      await this.#db.run(
        `INSERT INTO meta (key, value) VALUES (?, '1')
         ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(meta.value AS INTEGER) + 1 AS TEXT)`,
        VERSION,
      );
    });
    await this.#load();
  }

  #setMeta(key: string, value: string): Promise<number> {
    return this.#db.run(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      key,
      value,
    );
  }

  /** Issues (or replaces) a bearer token on every node. */
  grantToken(token: string, grant: TokenGrant): Promise<void> {
    return this.#change(async () => {
      await this.#upsertToken(token, JSON.stringify(grant));
    });
  }

  /** Revokes a bearer token on every node; false when it was not valid. */
  async revokeToken(token: string): Promise<boolean> {
    await this.sync();
    if (!this.#follow.tokens.get(token)) return false;
    await this.#change(() => this.#upsertToken(token, null));
    return true;
  }

  async #upsertToken(token: string, grant: string | null): Promise<void> {
    await this.#db.run(
      `INSERT INTO run_time_tokens (token, grant_json) VALUES (?, ?)
       ON CONFLICT (token) DO UPDATE SET grant_json = excluded.grant_json`,
      token,
      grant,
    );
  }

  /** Moves the test clock forward on every node (the offset is kept across restarts). */
  async advanceClock(ms: number): Promise<void> {
    await this.sync();
    const offset = this.#follow.clock.offsetMs + ms;
    await this.#change(async () => {
      await this.#setMeta('clockOffsetMs', String(offset));
    });
  }

  /** Sets the storage quota's limit on every node (undefined: no limit). */
  setQuotaLimit(limit: number | undefined): Promise<void> {
    return this.#change(async () => {
      await this.#setMeta('storageQuotaLimit', limit === undefined ? 'none' : String(limit));
    });
  }

  /** Schedules faults for every node; returns their rows. */
  async addFaults(specs: readonly { spec: string; skip: number; times: number }[]): Promise<FaultRow[]> {
    const ids: number[] = [];
    await this.#change(async () => {
      for (const f of specs) {
        const row = await this.#db.get<{ id: number }>(
          'INSERT INTO admin_faults (spec, skip, times) VALUES (?, ?, ?) RETURNING id',
          f.spec,
          f.skip,
          f.times,
        );
        if (row) ids.push(row.id);
      }
    });
    const placeholders = ids.map(() => '?').join(', ');
    return ids.length === 0
      ? []
      : this.#db.all<FaultRow>(`SELECT * FROM admin_faults WHERE id IN (${placeholders}) ORDER BY id`, ...ids);
  }

  /** Removes every fault on every node. */
  clearFaults(): Promise<void> {
    return this.#change(async () => {
      await this.#db.run('DELETE FROM admin_faults');
    });
  }

  /** The faults with uses left, as stored now. */
  listFaults(): Promise<FaultRow[]> {
    return this.#db.all<FaultRow>('SELECT * FROM admin_faults WHERE times > 0 ORDER BY id');
  }

  /**
   * Takes one use of fault `id` for a matching request, atomically across nodes: a request it must let through
   * first (`skip`), one it applies to (`apply`; a fault with no use left is removed), or none left (`gone`).
   */
  async claimFault(id: number): Promise<FaultClaim> {
    const claim = await this.#db.transaction(async (): Promise<FaultClaim> => {
      if ((await this.#db.run('UPDATE admin_faults SET skip = skip - 1 WHERE id = ? AND skip > 0', id)) > 0) {
        return 'skip';
      }
      const used = await this.#db.run(
        'UPDATE admin_faults SET times = times - 1, hits = hits + 1 WHERE id = ? AND times > 0',
        id,
      );
      return used > 0 ? 'apply' : 'gone';
    });
    if (claim !== 'skip') {
      const spent = await this.#db.get('SELECT id FROM admin_faults WHERE id = ? AND times > 0', id);
      if (!spent)
        await this.#change(() => this.#db.run('DELETE FROM admin_faults WHERE id = ?', id).then(() => undefined));
    }
    return claim;
  }
}
