/**
 * Notification channels (spec §2.4, §3.2), in the metadata database next to the outbox. A channel belongs to a project (the
 * OAuth client of the token that made it); its id is unique within that project.
 */
import type { MetadataDb } from '../metadata/metadata-port.ts';
import { greatest } from '../metadata/sql-dialect.ts';

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

/** The channel table, over the metadata database. */
export class ChannelStore {
  readonly #db: MetadataDb;

  constructor(db: MetadataDb) {
    this.#db = db;
  }

  /** Adds a channel; false when the id is already used in the project (expired channels are cleared first). */
  add(channel: Channel, now: number): Promise<boolean> {
    return this.#db.transaction(async () => {
      await this.#db.run(
        'DELETE FROM push_channels WHERE project = ? AND id = ? AND expiration <= ?',
        channel.project,
        channel.id,
        now,
      );
      const changes = await this.#db.run(
        `INSERT INTO push_channels (project, id, kind, file_id, resource_id, resource_uri, address, token,
           expiration, owner_email, service_account, last_message_number)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (project, id) DO NOTHING`,
        channel.project,
        channel.id,
        channel.kind,
        channel.fileId ?? null,
        channel.resourceId,
        channel.resourceUri,
        channel.address,
        channel.token ?? null,
        channel.expiration,
        channel.ownerEmail,
        channel.serviceAccount ? 1 : 0,
        channel.lastMessageNumber,
      );
      return changes === 1;
    });
  }

  /** A channel by project and id. */
  async get(project: string, id: string): Promise<Channel | undefined> {
    const row = await this.#db.get<Row>('SELECT * FROM push_channels WHERE project = ? AND id = ?', project, id);
    return row && toChannel(row);
  }

  /** Removes a channel. */
  async remove(project: string, id: string): Promise<void> {
    await this.#db.run('DELETE FROM push_channels WHERE project = ? AND id = ?', project, id);
  }

  /** Live file channels watching any of `fileIds`. */
  async watchingFiles(fileIds: readonly string[], now: number): Promise<Channel[]> {
    if (fileIds.length === 0) return [];
    const marks = fileIds.map(() => '?').join(', ');
    const rows = await this.#db.all<Row>(
      `SELECT * FROM push_channels WHERE kind = 'file' AND file_id IN (${marks}) AND expiration > ?`,
      ...fileIds,
      now,
    );
    return rows.map(toChannel);
  }

  /** Live change-log channels of the given users. */
  async changeLogOf(emails: readonly string[], now: number): Promise<Channel[]> {
    if (emails.length === 0) return [];
    const marks = emails.map(() => '?').join(', ');
    const rows = await this.#db.all<Row>(
      `SELECT * FROM push_channels WHERE kind = 'changes' AND owner_email IN (${marks}) AND expiration > ?`,
      ...emails,
      now,
    );
    return rows.map(toChannel);
  }

  /**
   * Reserves the next message number of a channel: above the last one and at least `floor`, so numbers rise
   * with the change log and are not consecutive.
   */
  async nextMessageNumber(channel: Channel, floor: number): Promise<number> {
    const row = await this.#db.get<{ last_message_number: number }>(
      `UPDATE push_channels SET last_message_number = ${greatest(this.#db.dialect, 'last_message_number + 1', '?')}
       WHERE project = ? AND id = ? RETURNING last_message_number`,
      floor,
      channel.project,
      channel.id,
    );
    return row ? row.last_message_number : channel.lastMessageNumber + 1;
  }

  /** Deletes channels that expired before `now`. */
  purgeExpired(now: number): Promise<number> {
    return this.#db.run('DELETE FROM push_channels WHERE expiration <= ?', now);
  }
}
