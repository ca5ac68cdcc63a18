import type { ImageResizeOptions, Uploader, UploaderClient } from '../../uploader/index.ts';
import type { UploaderOwner } from '../../headless/uploader-owner.ts';
import { hasStoredSessions, uploadsRunning } from '../../uploader/contract/stored-sessions.ts';

/** Signs that a user is about to upload: the uploader loads at the first, ahead of the pick or drop itself. */
const INTENT = ['pointerenter', 'pointerdown', 'focusin', 'dragenter'] as const;

/** The attributes of `<store-uploader>` that configure an uploader it creates itself. */
export interface UploaderAttributes {
  baseUrl: string;
  concurrency: number | undefined;
  chunkSize: number | undefined;
  resumableThreshold: number | undefined;
  imageResize: ImageResizeOptions | undefined;
  host: 'auto' | 'dedicated' | undefined;
  workerBase: string | undefined;
  account: string | undefined;
  /** The app's store client: the uploader is made with it, so the client's `accountChanged` moves it too. */
  client: UploaderClient | undefined;
}

/**
 * The `image-resize` attribute: `"1920x1080"` (either bound may be left out: `"1600x"`, `"x1200"`), then optionally
 * the type and the quality, `"1920x1080 image/webp 0.8"`. Anything else sets nothing and says why in the console.
 */
export const imageResizeAttribute = {
  fromAttribute(value: string | null): ImageResizeOptions | undefined {
    const m = /^\s*(\d*)[x×](\d*)(?:\s+([\w.+-]+\/[\w.+-]+))?(?:\s+(0(?:\.\d+)?|1(?:\.0*)?))?\s*$/i.exec(value ?? '');
    if (m && (m[1] || m[2]))
      return {
        ...(m[1] && { maxWidth: +m[1] }),
        ...(m[2] && { maxHeight: +m[2] }),
        ...(m[3] && { type: m[3] }),
        ...(m[4] && { quality: +m[4] }),
      };
    if (value?.trim())
      console.warn(
        `<store-uploader> image-resize="${value}" is not "WIDTHxHEIGHT [type] [quality]": images are sent as they are.`,
      );
    return undefined;
  },
};

/** What the owner is asked while it creates: its settings, its token, whether it still wants one, who to tell. */
export interface OwnedUploaderHost {
  /** Where the signs of intent are heard. */
  readonly element: HTMLElement;
  readonly settings: UploaderAttributes;
  readonly getAccessToken: () => string | Promise<string>;
  /** False once the element was given an uploader, or left the page, while the facade loaded. */
  readonly stillWanted: () => boolean;
  readonly created: (uploader: Uploader) => void;
}

/**
 * The uploader `<store-uploader>` creates when it has a `base-url` and no `uploader`, and ends when it leaves the page.
 * Only the facade (comlink and the hand-over to the worker) loads: the uploader entry would also pull the engine, the
 * worker service and the MD5 hasher onto the main thread, where none of them runs. And it loads when it is needed,
 * not with the page: at the first sign of intent on the element (a pointer over it or pressed on it, focus inside it,
 * a drag over it), when something asks for it ({@link demand}: a pick, a drop, a script reading `activeUploader`),
 * or at once when an earlier page life left upload sessions to offer. Files picked while it loads wait for it
 * ({@link whenReady}) rather than being dropped.
 */
export class OwnedUploader {
  /** The headless core's owner of an uploader (the headless store's too), once loaded. */
  #owner: UploaderOwner | undefined;
  #creating: Promise<void> | undefined;
  #disarm: (() => void) | undefined;

  constructor(private readonly host: OwnedUploaderHost) {}

  get current(): Uploader | undefined {
    return this.#owner?.current;
  }

  /** Waits for a sign of intent, or for stored sessions, when `wanted` and there is a `baseUrl` but no uploader yet. */
  want(wanted: boolean): void {
    if (!wanted || !this.host.settings.baseUrl || this.current || this.#creating || this.#disarm) return;
    const { element } = this.host;
    const start = () => void this.demand();
    for (const type of INTENT) element.addEventListener(type, start, { passive: true });
    this.#disarm = () => {
      for (const type of INTENT) element.removeEventListener(type, start);
      this.#disarm = undefined;
    };
    // Sessions an earlier page life left, or uploads the site's shared worker runs for another page: shown at once.
    void hasStoredSessions()
      .then((left) => left || uploadsRunning())
      .then((show) => show && this.demand());
  }

  /** The uploader, or undefined while it loads; starts loading it when it is wanted and not on its way. */
  demand(): Uploader | undefined {
    if (this.current || this.#creating || !this.host.settings.baseUrl || !this.host.stillWanted()) return this.current;
    this.#disarm?.();
    this.#creating = this.#load().finally(() => (this.#creating = undefined));
    // A failed import is reported once, here; callers waiting in `whenReady` go on without an uploader.
    this.#creating.catch((error: unknown) => console.error('<store-uploader> could not load its uploader', error));
    return undefined;
  }

  async #load(): Promise<void> {
    const { UploaderOwner } = await import('../internal/uploader-facade.ts');
    // The element may have been given an uploader, or left the page, while the facade loaded.
    if (!this.host.stillWanted()) return;
    const { concurrency, chunkSize, resumableThreshold, imageResize, host, workerBase, account, client } =
      this.host.settings;
    this.#owner = new UploaderOwner(() => ({
      baseUrl: this.host.settings.baseUrl,
      client,
      getAccessToken: this.host.getAccessToken,
      ...(concurrency ? { concurrency } : {}),
      ...(chunkSize ? { chunkSize } : {}),
      // 0 is a threshold too (every file resumable): only a missing or unparsable attribute means the default.
      ...(Number.isFinite(resumableThreshold) ? { resumableThreshold } : {}),
      ...(imageResize ? { imageResize } : {}),
      ...(host === 'dedicated' ? { host } : {}),
      ...(workerBase ? { workerBase } : {}),
      ...(account ? { account } : {}),
    }));
    this.host.created(this.#owner.uploader!);
  }

  /** The uploader once it is there, starting its load; `undefined` when none can be created or loading failed. */
  async ready(): Promise<Uploader | undefined> {
    this.demand();
    await this.#creating?.catch(() => undefined);
    return this.current;
  }

  /** Runs `use` now when `active` is there or none can be created, else once creation settles (in call order). */
  whenReady(active: Uploader | undefined, use: () => void): void {
    if (!active) this.demand();
    if (active || !this.#creating) {
      if (!active)
        console.warn(
          '<store-uploader> has no uploader (set `uploader` or `base-url`; any error loading it is logged above): picked files are not uploaded.',
        );
      use();
    } else void this.#creating.catch(() => undefined).then(use);
  }

  destroy(): void {
    this.#disarm?.();
    this.#owner?.destroy();
    this.#owner = undefined;
  }
}
