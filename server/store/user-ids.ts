/**
 * Which permission ID an address stands for. A person's ID comes from their identity provider (`Principal.permissionId`,
 * its `sub`); a share by address must carry the same ID that person's `about` shows, so each node remembers, in the
 * metadata database, the ID last seen with each address. An address never seen with a provider's ID keeps the one
 * derived from it.
 */
import type { Principal } from '../access.ts';
import type { MetadataDb } from '../metadata/metadata-port.ts';
import { permissionIdFor } from './ids.ts';

/** Addresses this node has written lately, so an `about` per page load writes nothing. */
const REMEMBERED = 1024;

export class UserIds {
  readonly #db: MetadataDb;
  readonly #written = new Map<string, string>();

  constructor(db: MetadataDb) {
    this.#db = db;
  }

  /** Notes `who`'s permission ID for their address (nothing to note when it is the address's own). */
  async remember(who: Principal): Promise<void> {
    if (who.permissionId === permissionIdFor('user', who.email)) return;
    if (this.#written.get(who.email) === who.permissionId) return;
    await this.#db.run(
      `INSERT INTO users (email, permission_id) VALUES (?, ?)
       ON CONFLICT (email) DO UPDATE SET permission_id = excluded.permission_id`,
      who.email,
      who.permissionId,
    );
    this.#written.delete(who.email);
    this.#written.set(who.email, who.permissionId);
    if (this.#written.size > REMEMBERED) this.#written.delete(this.#written.keys().next().value!);
  }

  /** The permission ID of a grantee: a user's as last seen with their address, else derived from it. */
  async permissionIdOf(type: string, who: string): Promise<string> {
    if (type === 'user') {
      const row = await this.#db.get<{ permission_id: string }>(
        'SELECT permission_id FROM users WHERE email = ?',
        who.toLowerCase(),
      );
      if (row !== undefined) return row.permission_id;
    }
    return permissionIdFor(type, who);
  }
}
