/**
 * The bearer tokens the service accepts right now: those of the configuration, less the ones revoked at run time,
 * plus the ones granted at run time (both through `/__admin/tokens`, so an app or a test can act a real sign-out).
 * Kept in memory: a restart goes back to the configuration.
 */
import type { TokenGrant } from './config.ts';

/** Token → grant, changeable while the service runs. */
export class TokenGrants {
  readonly #grants: Map<string, TokenGrant>;

  constructor(configured: Readonly<Record<string, TokenGrant>>) {
    this.#grants = new Map(Object.entries(configured));
  }

  /** The grant of `token`, or undefined for a token never issued or revoked. */
  get(token: string): TokenGrant | undefined {
    return this.#grants.get(token);
  }

  /** Issues (or replaces) `token`. */
  grant(token: string, grant: TokenGrant): void {
    this.#grants.set(token, grant);
  }

  /** Revokes `token`: every later request bearing it gets 401. False when it was not a valid token. */
  revoke(token: string): boolean {
    return this.#grants.delete(token);
  }
}
