import type { ImageResizeOptions, Uploader } from '../../uploader/index.ts';

/** The attributes of `<store-uploader>` that configure an uploader it creates itself. */
export interface OwnedUploaderSettings {
  baseUrl: string;
  concurrency: number | undefined;
  chunkSize: number | undefined;
  resumableThreshold: number | undefined;
  imageResize: ImageResizeOptions | undefined;
}

/**
 * The `image-resize` attribute: `"1920x1080"` (either bound may be left out: `"1600x"`, `"x1200"`), then optionally
 * the type and the quality, `"1920x1080 image/webp 0.8"`. Anything else sets nothing and says why in the console.
 */
export const imageResizeAttribute = {
  fromAttribute(value: string | null): ImageResizeOptions | undefined {
    const m = /^\s*(\d*)[x×](\d*)(?:\s+([\w.+-]+\/[\w.+-]+))?(?:\s+(0(?:\.\d+)?|1(?:\.0*)?))?\s*$/i.exec(value ?? '');
    if (m && (m[1] || m[2])) return { ...(m[1] && { maxWidth: +m[1] }), ...(m[2] && { maxHeight: +m[2] }), ...(m[3] && { type: m[3] }), ...(m[4] && { quality: +m[4] }) };
    if (value?.trim()) console.warn(`<store-uploader> image-resize="${value}" is not "WIDTHxHEIGHT [type] [quality]": images are sent as they are.`);
    return undefined;
  },
};

/** What the owner is asked while it creates: its settings, its token, whether it still wants one, who to tell. */
export interface OwnedUploaderHost {
  readonly settings: OwnedUploaderSettings;
  readonly getAccessToken: () => string | Promise<string>;
  /** False once the element was given an uploader, or left the page, while the facade loaded. */
  readonly stillWanted: () => boolean;
  readonly created: (uploader: Uploader) => void;
}

/**
 * The uploader `<store-uploader>` creates when it has a `base-url` and no `uploader`, and ends when it leaves the page.
 * Only the facade (comlink and the hand-over to the worker) loads: the uploader entry would also pull the engine, the
 * worker service and the MD5 hasher onto the main thread, where none of them runs. Files picked while the facade loads
 * wait for it ({@link whenReady}) rather than being dropped: a page's first pick can come before the import settles.
 */
export class OwnedUploader {
  #uploader: Uploader | undefined;
  #creating: Promise<void> | undefined;

  constructor(private readonly host: OwnedUploaderHost) {}

  get current(): Uploader | undefined {
    return this.#uploader;
  }

  /** Starts creating one when `wanted` and there is a `baseUrl`, unless there is one or one is on its way. */
  create(wanted: boolean): void {
    if (!wanted || !this.host.settings.baseUrl || this.#uploader || this.#creating) return;
    this.#creating = this.#load().finally(() => (this.#creating = undefined));
    // A failed import is reported once, here; callers waiting in `whenReady` go on without an uploader.
    this.#creating.catch((error: unknown) => console.error('<store-uploader> could not load its uploader', error));
  }

  async #load(): Promise<void> {
    const { createUploader } = await import('../internal/uploader-facade.ts');
    // The element may have been given an uploader, or left the page, while the facade loaded.
    if (!this.host.stillWanted()) return;
    const { baseUrl, concurrency, chunkSize, resumableThreshold, imageResize } = this.host.settings;
    this.#uploader = createUploader({
      baseUrl,
      getAccessToken: this.host.getAccessToken,
      ...(concurrency ? { concurrency } : {}),
      ...(chunkSize ? { chunkSize } : {}),
      // 0 is a threshold too (every file resumable): only a missing or unparsable attribute means the default.
      ...(Number.isFinite(resumableThreshold) ? { resumableThreshold } : {}),
      ...(imageResize ? { imageResize } : {}),
    });
    this.host.created(this.#uploader);
  }

  /** Runs `use` now when `active` is there or nothing is being created, else once creation settles (in call order). */
  whenReady(active: Uploader | undefined, use: () => void): void {
    if (active || !this.#creating) {
      if (!active) console.warn('<store-uploader> has no uploader (set `uploader` or `base-url`; any error loading it is logged above): picked files are not uploaded.');
      use();
    } else void this.#creating.catch(() => undefined).then(use);
  }

  destroy(): void {
    this.#uploader?.destroy();
    this.#uploader = undefined;
  }
}
