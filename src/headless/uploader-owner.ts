/**
 * The uploader made from an app's options and ended by whoever made it: the headless store's (`upload-store.ts`)
 * and `<store-uploader>`'s with a `base-url` (`elements/uploader/owned-uploader.ts`, which loads this on intent).
 */
import { createUploader } from '../uploader/page/create-uploader.ts';
import type { UploaderInput, Uploader } from '../uploader/index.ts';

/** Makes the uploader on first need and ends it; after `destroy` the next need makes a new one. */
export class UploaderOwner {
  #uploader: Uploader | undefined;

  /** `options` is asked when an uploader is needed; `undefined` makes none (no options yet, or server rendering). */
  constructor(private readonly options: () => UploaderInput | undefined) {}

  /** The uploader made, if any, without making one. */
  get current(): Uploader | undefined {
    return this.#uploader;
  }

  /** The uploader, made now if there is none yet and there are options. */
  get uploader(): Uploader | undefined {
    const options = this.#uploader ? undefined : this.options();
    if (options) this.#uploader = createUploader(options);
    return this.#uploader;
  }

  /** Ends the uploader (its page's part of the uploads). */
  destroy(): void {
    this.#uploader?.destroy();
    this.#uploader = undefined;
  }
}
