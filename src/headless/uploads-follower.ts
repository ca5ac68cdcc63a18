/**
 * The one page-side store of the uploads: it follows one uploader for a UI and tells its listeners of each change.
 * The headless store (`upload-store.ts`, under every binding) and the elements' controller
 * (`elements/internal/uploader-controller.ts`) both stand on it. It creates no uploader and imports none of its code,
 * so an element given an `uploader` loads nothing more through it.
 */
import type { Uploader, UploaderSnapshot } from '../uploader/index.ts';

/**
 * Follows one uploader (`follow` another, and the subscription moves). Listeners hear each of its `change` events as they
 * come: the uploader paces them already (one a frame, one every 100 ms past 200 tasks: `uploader/page/change-signal.ts`),
 * so nothing paces them again. It listens to the uploader only while someone subscribes, so a UI that left never
 * keeps an uploader alive.
 */
export class UploadsFollower {
  /** The uploader followed (`follow` changes it). */
  uploader: Uploader | undefined;
  readonly #listeners = new Set<() => void>();
  /**
   * The snapshot of the last change heard: an uploader may build one of every task each time it is asked, which with
   * 10,000 tasks is worth doing once per change, not once per reader.
   */
  #latest: UploaderSnapshot | undefined;

  /** Follows `next` from now on (none: follows nothing); listeners, if any, hear of it as of a change. */
  follow(next: Uploader | undefined): void {
    if (next === this.uploader) return;
    const listening = this.#listeners.size > 0;
    if (listening) this.uploader?.removeEventListener('change', this.#onChange);
    this.uploader = next;
    this.#latest = undefined;
    if (listening) {
      next?.addEventListener('change', this.#onChange);
      this.notify();
    }
  }

  /** Adds a listener of changes; returns its removal. The first listener attaches to the uploader, the last leaves. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    if (this.#listeners.size === 1) {
      this.uploader?.addEventListener('change', this.#onChange);
      // Tasks that moved while nobody listened (a remount after a route change) show at once, not a change later.
      this.#latest = undefined;
    }
    return () => {
      if (this.#listeners.delete(listener) && this.#listeners.size === 0)
        this.uploader?.removeEventListener('change', this.#onChange);
    };
  };

  /** The uploader's state as of its last change (read from it while nobody listens); none without an uploader. */
  get snapshot(): UploaderSnapshot | undefined {
    if (!this.#latest || this.#listeners.size === 0) this.#latest = this.uploader?.snapshot;
    return this.#latest;
  }

  /** Tells every listener (also when the owner swapped or ended the uploader). */
  notify(): void {
    // A Set's forEach visits what is left of it as listeners leave during the calls.
    this.#listeners.forEach((listener) => listener());
  }

  readonly #onChange = (event: Event): void => {
    this.#latest = (event as CustomEvent<UploaderSnapshot>).detail ?? this.uploader?.snapshot;
    this.notify();
  };
}
