/**
 * The bearer tokens the service accepts right now: those of the configuration, less the ones revoked at run time,
 * plus the ones granted at run time (both through `/__admin/tokens`, so an app or a test can act a real sign-out).
 * The run-time changes are kept in the metadata database (`store/run-time-settings.ts` writes them and hands every
 * node's copy the current set), so every node over one database answers a token alike.
 */
import type { TokenGrant } from './config.ts';

/** Token → grant, changeable while the service runs. */
export class TokenGrants {
  readonly #configured: ReadonlyMap<string, TokenGrant>;
  #grants: Map<string, TokenGrant>;

  constructor(configured: Readonly<Record<string, TokenGrant>>) {
    this.#configured = new Map(Object.entries(configured));
    this.#grants = new Map(this.#configured);
  }

  /** The grant of `token`, or undefined for a token never issued or revoked. */
  get(token: string): TokenGrant | undefined {
    return this.#grants.get(token);
  }

  /** Issues (or replaces) `token` in this copy. */
  grant(token: string, grant: TokenGrant): void {
    this.#grants.set(token, grant);
  }

  /** Revokes `token` in this copy: every later request bearing it gets 401. False when it was not a valid token. */
  revoke(token: string): boolean {
    return this.#grants.delete(token);
  }

  /** The configuration's tokens with the run-time changes applied (a grant, or null for a revocation). */
  adopt(changes: ReadonlyMap<string, TokenGrant | null>): void {
    const next = new Map(this.#configured);
    for (const [token, grant] of changes) {
      if (grant) next.set(token, grant);
      else next.delete(token);
    }
    this.#grants = next;
  }
}
