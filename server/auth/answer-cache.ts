/**
 * Introspection answers kept a short while, by the token's SHA-256 (the raw token is not kept as a key): each until
 * its own deadline — at most `maxMs`, never past the token's `exp` — so a revoked token is refused soon after.
 * Concurrent requests with one token share one introspection call.
 */
import { createHash } from 'node:crypto';

/** Entries kept at most; past it the oldest goes (a flood of made-up tokens cannot grow memory). */
const MAX_ENTRIES = 10_000;

/** What was decided about a token, and until when (ms, the service's clock) it holds. */
export interface CachedAnswer<T> {
  readonly value: T;
  readonly untilMs: number;
}

/** A bounded cache of decisions about tokens. */
export class AnswerCache<T> {
  readonly #entries = new Map<string, CachedAnswer<T>>();
  readonly #pending = new Map<string, Promise<CachedAnswer<T>>>();
  readonly #now: () => number;

  constructor(now: () => number) {
    this.#now = now;
  }

  /** The kept answer for `token` while it holds, else `decide`'s (kept unless it rejects). */
  async get(token: string, decide: () => Promise<CachedAnswer<T>>): Promise<T> {
    const key = createHash('sha256').update(token).digest('base64url');
    const kept = this.#entries.get(key);
    if (kept !== undefined && kept.untilMs > this.#now()) return kept.value;
    this.#entries.delete(key);
    let pending = this.#pending.get(key);
    if (pending === undefined) {
      pending = decide().finally(() => this.#pending.delete(key));
      this.#pending.set(key, pending);
      pending.then(
        (answer) => this.#keep(key, answer),
        () => undefined,
      );
    }
    return (await pending).value;
  }

  #keep(key: string, answer: CachedAnswer<T>): void {
    if (answer.untilMs <= this.#now()) return;
    if (this.#entries.size >= MAX_ENTRIES) {
      const oldest = this.#entries.keys().next();
      if (oldest.done !== true) this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, answer);
  }
}
