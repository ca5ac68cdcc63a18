import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { UploaderSnapshot } from '../../uploader/index.ts';
import { UploadsFollower } from '../../headless/uploads-follower.ts';

const EMPTY: UploaderSnapshot = { tasks: [], online: true, totalBytes: 0, sentBytes: 0 };

/**
 * The page's one store of the uploads (`headless/uploads-follower.ts`, which the headless store and every binding
 * stand on too) as a Lit controller: its host re-renders on each snapshot while it is connected. Following another
 * uploader (`controller.follow(other)`, from the host's `willUpdate`) moves the subscription; disconnecting drops
 * it, so a removed element never keeps an uploader alive.
 */
export class UploaderController extends UploadsFollower implements ReactiveController {
  #unsubscribe: (() => void) | undefined;
  readonly #changed = (): void => {
    if (this.uploader) this.onChange?.(this.state);
    this.host.requestUpdate();
  };

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly onChange?: (snapshot: UploaderSnapshot) => void,
  ) {
    super();
    host.addController(this);
  }

  /** The latest snapshot, or an empty one without an uploader. */
  get state(): UploaderSnapshot {
    return this.snapshot ?? EMPTY;
  }

  hostConnected(): void {
    this.#unsubscribe = this.subscribe(this.#changed);
    this.#changed();
  }

  hostDisconnected(): void {
    this.#unsubscribe?.();
  }
}
