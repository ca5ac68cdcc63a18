import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Uploader, UploaderSnapshot } from '../../uploader/index.ts';

const EMPTY: UploaderSnapshot = { tasks: [], online: true, totalBytes: 0, sentBytes: 0 };

/**
 * Subscribes its host to an uploader's `change` event while the host is connected, so state flows down from the
 * uploader and the host re-renders on each snapshot — as they come: the uploader paces them (at most one a frame, one
 * every 100 ms for a long list: `uploader/page/change-signal.ts`), so an element paces nothing again. Swapping uploaders (`controller.uploader = other`) moves the
 * subscription; disconnecting drops it, so a removed element never keeps an uploader alive.
 */
export class UploaderController implements ReactiveController {
  #uploader: Uploader | undefined;
  #connected = false;
  readonly #host: ReactiveControllerHost;
  readonly #onChange: ((snapshot: UploaderSnapshot) => void) | undefined;
  /**
   * The latest snapshot, from the uploader's `change` event: an uploader builds a snapshot of every task each time
   * it is asked, which with 10,000 tasks is worth doing once per change, not once per reader.
   */
  #latest: UploaderSnapshot | undefined;
  readonly #listener = (event: Event): void => {
    const snapshot = (event as CustomEvent<UploaderSnapshot>).detail ?? this.#uploader?.snapshot ?? EMPTY;
    this.#latest = snapshot;
    this.#onChange?.(snapshot);
    this.#host.requestUpdate();
  };
  constructor(host: ReactiveControllerHost, onChange?: (snapshot: UploaderSnapshot) => void) {
    this.#host = host;
    this.#onChange = onChange;
    host.addController(this);
  }

  /** The uploader followed; set it from the host's `willUpdate` when its `uploader` property changes. */
  get uploader(): Uploader | undefined {
    return this.#uploader;
  }

  set uploader(next: Uploader | undefined) {
    if (next === this.#uploader) return;
    if (this.#connected) this.#uploader?.removeEventListener('change', this.#listener);
    this.#uploader = next;
    this.#latest = undefined;
    if (this.#connected && next) {
      next.addEventListener('change', this.#listener);
      this.#onChange?.(this.snapshot);
    }
    this.#host.requestUpdate();
  }

  /** The latest snapshot, or an empty one without an uploader. */
  get snapshot(): UploaderSnapshot {
    if (!this.#uploader) return EMPTY;
    // Not following (disconnected), or no change seen yet: ask the uploader.
    if (!this.#connected || !this.#latest) this.#latest = this.#uploader.snapshot;
    return this.#latest;
  }

  hostConnected(): void {
    this.#connected = true;
    this.#latest = undefined;
    if (this.#uploader) {
      this.#uploader.addEventListener('change', this.#listener);
      this.#onChange?.(this.snapshot);
    }
  }

  hostDisconnected(): void {
    this.#connected = false;
    this.#uploader?.removeEventListener('change', this.#listener);
  }
}
