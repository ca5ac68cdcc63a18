/**
 * Holds the current access token. The app's `getAccessToken` is asked once and the answer reused until the service
 * answers 401; then it is asked once more (the app refreshes its token there) and the call retried once.
 */
export class TokenSource {
  private current?: Promise<string>;

  constructor(private readonly getAccessToken: () => string | Promise<string>) {}

  /** The token to send; `refresh` asks the app again (after a 401). */
  get(refresh = false): Promise<string> {
    if (refresh || !this.current) {
      const asked = Promise.resolve().then(() => this.getAccessToken());
      // A failed ask must not stick: the next call asks again.
      asked.catch(() => {
        if (this.current === asked) this.current = undefined;
      });
      this.current = asked;
    }
    return this.current;
  }
}
