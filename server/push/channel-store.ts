/**
 * Notification channels (spec §2.4, §3.2), in SQLite next to the outbox. A channel belongs to a project (the
 * OAuth client of the token that made it); its id is unique within that project.
 */
import type { Database } from 'better-sqlite3';

/** What a channel watches. */
export type ChannelKind = 'file' | 'changes';

/** A stored channel. */
export interface Channel {
  /** Project (OAuth client) the channel belongs to. */
  project: string;
  id: string;
  kind: ChannelKind;
  /** The watched file (file channels). */
  fileId: string | undefined;
  resourceId: string;
  resourceUri: string;
  address: string;
  token: string | undefined;
  /** Unix ms; every channel here expires. */
  expiration: number;
  /** Creator's e-mail and whether it is a service account (stop rules, spec §5). */
  ownerEmail: string;
  serviceAccount: boolean;
  /** Last `X-Svc-Message-Number` used (1 after sync). */
  lastMessageNumber: number;
}

interface Row {
  project: string;
  id: string;
  kind: ChannelKind;
  file_id: string | null;
  resource_id: string;
  resource_uri: string;
  address: string;
  token: string | null;
  expiration: number;
  owner_email: string;
  service_account: number;
  last_message_number: number;
}

const toChannel = (r: Row): Channel => ({
  project: r.project,
  id: r.id,
  kind: r.kind,
  fileId: r.file_id ?? undefined,
  resourceId: r.resource_id,
  resourceUri: r.resource_uri,
  address: r.address,
  token: r.token ?? undefined,
  expiration: r.expiration,
  ownerEmail: r.owner_email,
  serviceAccount: r.service_account === 1,
  lastMessageNumber: r.last_message_number,
});

/** SQLite-backed channel table. */
export class ChannelStore {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
    db.exec(`
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
    `);
  }

  /** Adds a channel; false when the id is already used in the project (expired channels are cleared first). */
  add(channel: Channel, now: number): boolean {
    return this.#db.transaction(() => {
      this.#db
        .prepare('DELETE FROM push_channels WHERE project = ? AND id = ? AND expiration <= ?')
        .run(channel.project, channel.id, now);
      const result = this.#db
        .prepare(
          `INSERT OR IGNORE INTO push_channels (project, id, kind, file_id, resource_id, resource_uri, address, token,
             expiration, owner_email, service_account, last_message_number)
           VALUES (@project, @id, @kind, @fileId, @resourceId, @resourceUri, @address, @token, @expiration,
             @ownerEmail, @serviceAccount, @lastMessageNumber)`,
        )
        .run({
          ...channel,
          fileId: channel.fileId ?? null,
          token: channel.token ?? null,
          serviceAccount: channel.serviceAccount ? 1 : 0,
        });
      return result.changes === 1;
    })();
  }

  /** A channel by project and id. */
  get(project: string, id: string): Channel | undefined {
    const row = this.#db.prepare('SELECT * FROM push_channels WHERE project = ? AND id = ?').get(project, id) as
      Row | undefined;
    return row && toChannel(row);
  }

  /** Removes a channel. */
  remove(project: string, id: string): void {
    this.#db.prepare('DELETE FROM push_channels WHERE project = ? AND id = ?').run(project, id);
  }

  /** Live file channels watching any of `fileIds`. */
  watchingFiles(fileIds: readonly string[], now: number): Channel[] {
    if (fileIds.length === 0) return [];
    const marks = fileIds.map(() => '?').join(', ');
    const rows = this.#db
      .prepare(`SELECT * FROM push_channels WHERE kind = 'file' AND file_id IN (${marks}) AND expiration > ?`)
      .all(...fileIds, now) as Row[];
    return rows.map(toChannel);
  }

  /** Live change-log channels of the given users. */
  changeLogOf(emails: readonly string[], now: number): Channel[] {
    if (emails.length === 0) return [];
    const marks = emails.map(() => '?').join(', ');
    const rows = this.#db
      .prepare(`SELECT * FROM push_channels WHERE kind = 'changes' AND owner_email IN (${marks}) AND expiration > ?`)
      .all(...emails, now) as Row[];
    return rows.map(toChannel);
  }

  /**
   * Reserves the next message number of a channel: above the last one and at least `floor`, so numbers rise
   * with the change log and are not consecutive.
   */
  nextMessageNumber(channel: Channel, floor: number): number {
    const row = this.#db
      .prepare(
        `UPDATE push_channels SET last_message_number = MAX(last_message_number + 1, ?)
         WHERE project = ? AND id = ? RETURNING last_message_number`,
      )
      .get(floor, channel.project, channel.id) as { last_message_number: number } | undefined;
    return row?.last_message_number ?? channel.lastMessageNumber + 1;
  }

  /** Deletes channels that expired before `now`. */
  purgeExpired(now: number): number {
    return this.#db.prepare('DELETE FROM push_channels WHERE expiration <= ?').run(now).changes;
  }
}
