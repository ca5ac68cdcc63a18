/**
 * Whose a token is, as the service says (`about.user.permissionId`), so a watcher can tell a refreshed token of the
 * same account from another account's: only the latter ends its channels.
 */
import { H_AUTHORIZATION, bearer } from '../protocol/headers.ts';
import { ABOUT_PATH } from '../protocol/routes.ts';
import type { RequestOptions } from './api-call.ts';

/** What the guard needs of the watcher's client (`WatchClient` in `watch.ts`). */
interface WatchClient {
  request<T>(method: string, path: string, options?: RequestOptions): Promise<T>;
  accessToken?(refresh?: boolean, failed?: string): Promise<string>;
}

/** At most this many tokens' accounts are remembered (a long-lived page refreshes its token every hour or so). */
const REMEMBERED = 16;

/** Answers "is a token made with `made` still the signed-in account's?" for one client. */
export class AccountGuard {
  readonly #owners = new Map<string, Promise<string>>();

  constructor(private readonly client: WatchClient) {}

  /**
   * True when the client's token now is `made`, or another token of the same account. A client that cannot say
   * which token it sends (no `accessToken`) is taken at its word: true.
   */
  async isCurrent(made: string | undefined): Promise<boolean> {
    if (made === undefined || !this.client.accessToken) return true;
    const now = await this.client.accessToken();
    if (now === made) return true;
    const [a, b] = await Promise.all([this.#owner(made), this.#owner(now)]);
    return a === b;
  }

  #owner(token: string): Promise<string> {
    let owner = this.#owners.get(token);
    if (!owner) {
      owner = this.client
        .request<{ user?: { permissionId?: string } }>('GET', ABOUT_PATH, {
          query: { fields: 'user(permissionId)' },
          headers: { [H_AUTHORIZATION]: bearer(token) },
        })
        .then((about) => about.user?.permissionId ?? `unknown:${token}`);
      // A failed look-up is not remembered: the next message asks again.
      owner.catch(() => this.#owners.delete(token));
      this.#owners.set(token, owner);
      if (this.#owners.size > REMEMBERED) this.#owners.delete(this.#owners.keys().next().value!);
    }
    return owner;
  }
}
