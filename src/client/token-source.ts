/**
 * Where a client's bearer tokens come from.
 *
 * `createStoreClient` asks the app's `getAccessToken` for every request (`reuse: false`): the getter is the app's
 * sign-in state, so the request after a sign-in as another account carries that account's token whatever else the
 * app does, and caching belongs to the getter (its OAuth library knows expiry and sign-out). After a 401 the getter
 * is asked once more and the call retried once.
 *
 * The upload worker's client (`reuse: true`, one account's engine, `uploader/worker/engine-hub.ts`) asks once and
 * reuses the answer until the service answers 401; then it asks once more (the page refreshes its token there).
 *
 * One streak of 401s asks the app at most once, however many calls (the client's, the uploader's, parallel
 * uploads) hit it: a call whose token was already replaced just takes the new one, and a refreshed token that no
 * request has accepted yet is not refreshed again — an app whose tokens never work gets a clear `auth` failure, not
 * a loop of prompts.
 */
export class TokenSource {
  private current?: Promise<string>;
  /** The resolved value of `current` (undefined while it is being asked for). */
  private value?: string;
  /** True while `current` came from a refresh that no request has accepted yet. */
  private unproven = false;

  constructor(
    private readonly getAccessToken: () => string | Promise<string>,
    private readonly reuse = true,
  ) {}

  /**
   * The token to send. `refresh` (after a 401) asks the app again, unless `failed` — the token the 401 answered —
   * is no longer the current one, or the current one is itself an unproven refresh.
   */
  get(refresh = false, failed?: string): Promise<string> {
    if (!this.reuse) return this.#ask();
    if (refresh && this.current) {
      if (failed !== undefined && this.value !== undefined && this.value !== failed) return this.current;
      if (this.unproven) return this.current;
    }
    if (refresh || !this.current) {
      const asked = this.#ask();
      this.value = undefined;
      this.unproven = refresh;
      asked.then(
        (token) => {
          if (this.current === asked) this.value = token;
        },
        () => {
          // A failed ask must not stick: the next call asks again.
          if (this.current === asked) {
            this.current = undefined;
            this.unproven = false;
          }
        },
      );
      this.current = asked;
    }
    return this.current;
  }

  #ask(): Promise<string> {
    return Promise.resolve()
      .then(() => this.getAccessToken())
      .catch((error: unknown) => {
        throw new TokenError(error);
      });
  }

  /** The service answered a request made with `token` with something other than 401: it works. */
  accepted(token: string): void {
    if (token === this.value) this.unproven = false;
  }
}

/**
 * The app's `getAccessToken` threw or rejected: no request was sent. `cause` is what it threw; the uploader fails
 * the task with code `auth` (the user must sign in again), not `unknown`.
 */
export class TokenError extends Error {
  constructor(cause: unknown) {
    super(`getAccessToken failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'TokenError';
  }
}
