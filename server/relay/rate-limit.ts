/** A token bucket per key (client address): `burst` at once, refilled at `perMinute`. */
export class RateLimiter {
  readonly #buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    readonly burst: number,
    readonly perMinute: number,
  ) {}

  /** Takes one token for `key`; returns 0 when allowed, else the ms until one is available. */
  take(key: string, now: number): number {
    const refill = this.perMinute / 60_000;
    const b = this.#buckets.get(key) ?? { tokens: this.burst, at: now };
    b.tokens = Math.min(this.burst, b.tokens + (now - b.at) * refill);
    b.at = now;
    this.#buckets.set(key, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    // Full buckets carry no information: forget them so the map holds only recent clients.
    if (this.#buckets.size > 10_000)
      for (const [k, v] of this.#buckets) if (v.tokens + (now - v.at) * refill >= this.burst) this.#buckets.delete(k);
    return Math.ceil((1 - b.tokens) / refill);
  }
}
