/**
 * The uploader's `change`, coalesced: at most one per macrotask, and at most ten a second while only progress moves
 * (a `schedule(0)` — a task added, a state changed — overtakes a throttled one).
 */
export class ChangeSignal {
  #timer?: ReturnType<typeof setTimeout>;
  /** Whether the pending `change` waits for the progress throttle (true) or for the end of this macrotask. */
  #throttled = false;

  constructor(private readonly fire: () => void) {}

  schedule(delay: number): void {
    if (this.#timer !== undefined) {
      if (delay > 0 || !this.#throttled) return;
      clearTimeout(this.#timer);
    }
    this.#throttled = delay > 0;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.fire();
    }, delay);
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
