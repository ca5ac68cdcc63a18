/**
 * The page's one pacing rule for what a UI draws. The worker's progress meter paces each task's progress at its
 * source and the event batch carries it over; here every change of a frame — a batch of events, a task added, a
 * state changed — becomes one `change`, fired before the next paint. The elements and the headless store draw from
 * that `change` as it comes and pace nothing again, so a batch shows within the frame it arrives in.
 *
 * A longer list than `LONG_LIST` changes at most every `LONG_LIST_INTERVAL_MS`: each `change` carries a snapshot of
 * every task, and a UI looks at every one of them (the list's announcer, a framework's diff), which with 10,000
 * tasks is worth doing ten times a second, not sixty.
 */
const LONG_LIST = 200;
const LONG_LIST_INTERVAL_MS = 100;
/**
 * A frame that does not come (a page hidden since the change, where `requestAnimationFrame` waits for the page to
 * show again) is not waited for longer than this.
 */
const FRAME_LIMIT_MS = 100;

/** Runs `run` before the next paint, or after `FRAME_LIMIT_MS` when no frame comes first; returns its cancel. */
function beforeNextPaint(run: () => void): () => void {
  let done = false;
  const once = (): void => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    if (frame !== undefined) cancelAnimationFrame(frame);
    run();
  };
  const hasFrames = typeof requestAnimationFrame === 'function' && typeof document !== 'undefined';
  const frame = hasFrames && !document.hidden ? requestAnimationFrame(once) : undefined;
  const timer = setTimeout(once, frame === undefined ? 16 : FRAME_LIMIT_MS);
  return () => {
    done = true;
    clearTimeout(timer);
    if (frame !== undefined) cancelAnimationFrame(frame);
  };
}

/** The uploader's `change`: one per frame at most (one per `LONG_LIST_INTERVAL_MS` for a long list). */
export class ChangeSignal {
  #cancel?: () => void;
  #lastFired = -Infinity;

  constructor(
    private readonly fire: () => void,
    /** The tasks the next `change` carries (the page's `TaskTable`). */
    private readonly list: { readonly size: number },
  ) {}

  /** Something changed: a `change` follows before the next paint, together with whatever else changes until then. */
  schedule(): void {
    if (this.#cancel) return;
    const wait = this.list.size > LONG_LIST ? this.#lastFired + LONG_LIST_INTERVAL_MS - performance.now() : 0;
    const fire = (): void => {
      this.#cancel = undefined;
      this.#lastFired = performance.now();
      this.fire();
    };
    if (wait <= 0) {
      this.#cancel = beforeNextPaint(fire);
      return;
    }
    const timer = setTimeout(() => (this.#cancel = beforeNextPaint(fire)), wait);
    this.#cancel = () => clearTimeout(timer);
  }

  /** A `change` that waits fires now: a command that resolves once its change is made (a sign-out) shows it at once. */
  flush(): void {
    if (!this.#cancel) return;
    this.stop();
    this.#lastFired = performance.now();
    this.fire();
  }

  stop(): void {
    this.#cancel?.();
    this.#cancel = undefined;
  }
}
