import type { PropertyDeclarations } from 'lit';
import type { PickedFile } from '../events.ts';
import type { ImportFormats } from '../conversion-picker/import-formats.ts';
import { StoreElement } from '../internal/store-element.ts';
import type { BeforeUpload, ImageResizeOptions, Uploader, UploaderClient } from '../../uploader/index.ts';
import { imageResizeAttribute } from './owned-uploader.ts';
import type { ShareFunction } from './share.ts';

/**
 * `<store-uploader>`'s attributes and properties, each with what it does: the element (`store-uploader.ts`) reads
 * them; an app sets them. Kept apart so the element's file holds its behaviour.
 */
export abstract class StoreUploaderProperties extends StoreElement {
  static override properties: PropertyDeclarations = {
    baseUrl: { attribute: 'base-url' },
    token: {},
    account: {},
    concurrency: { type: Number },
    chunkSize: { type: Number, attribute: 'chunk-size' },
    resumableThreshold: { type: Number, attribute: 'resumable-threshold' },
    imageResize: { attribute: 'image-resize', converter: imageResizeAttribute },
    host: {},
    workerBase: { attribute: 'worker-base' },
    accept: {},
    maxFileSize: { type: Number, attribute: 'max-file-size' },
    minFileSize: { type: Number, attribute: 'min-file-size' },
    maxFiles: { type: Number, attribute: 'max-files' },
    maxTotalSize: { type: Number, attribute: 'max-total-size' },
    conversion: {},
    parentId: { attribute: 'parent-id' },
    flatten: { type: Boolean },
    share: { type: Boolean },
    name: { reflect: true },
    uploader: { attribute: false },
    importFormats: { attribute: false },
    getAccessToken: { attribute: false },
    client: { attribute: false },
    shareFiles: { attribute: false },
    beforeUpload: { attribute: false },
    convertAll: { state: true, attribute: false },
    ocrLanguage: { state: true, attribute: false },
    pending: { state: true, attribute: false },
    shareMessage: { state: true, attribute: false },
    shareError: { state: true, attribute: false },
  };

  /** Service base URL; used to create an uploader when none is given, and for conversions and sharing. */
  declare baseUrl: string;
  /** A development bearer token (use `getAccessToken` in production). */
  declare token: string;
  /**
   * The signed-in account's ID (`UploaderOptions.account`): the list shows only its uploads. Unset, the account is
   * learned from the token. Changing it, `token` or `getAccessToken` shows the new account's uploads only.
   */
  declare account: string | undefined;
  /** Files uploaded at once by a created uploader. */
  declare concurrency: number | undefined;
  /** Bytes per resumable request of a created uploader (a multiple of 256 KiB). */
  declare chunkSize: number | undefined;
  /** Files larger than this go resumable in a created uploader. */
  declare resumableThreshold: number | undefined;
  /** Images scaled down in the worker by a created uploader (`imageResize`); attribute `"1920x1080 [type] [quality]"`. */
  declare imageResize: ImageResizeOptions | undefined;
  /** `dedicated`: a created uploader runs in this page's own worker, not the site's shared one (`UploaderOptions.host`). */
  declare host: 'auto' | 'dedicated' | undefined;
  /** Where the app serves its copy of the package's `dist/workers/` (`UploaderOptions.workerBase`). */
  declare workerBase: string | undefined;
  /** File types accepted, as in `<input accept>` (passed to the dropzone): `.csv,image/*`. Empty accepts all. */
  declare accept: string;
  // The restrictions, passed to the dropzone; the counts include the files waiting for a conversion choice.
  /** Largest accepted file in bytes; 0 means no limit. */ declare maxFileSize: number;
  /** Smallest accepted file in bytes; 0 means no limit. */ declare minFileSize: number;
  /** Most files accepted, counting those listed and those waiting for a conversion choice; 0 means no limit. */ declare maxFiles: number;
  /** Most bytes accepted in total, counting those listed and those waiting; 0 means no limit. */ declare maxTotalSize: number;
  /**
   * Runs on each file that passed the restrictions, before it is listed or uploaded: `false` refuses it, a
   * `File`/`Blob` replaces it, `{ name, metadata, convertTo }` changes what is sent (its `convertTo` wins over the
   * conversion choice); may be async; a throw refuses it with the error's message. Refusals show in the dropzone.
   */
  declare beforeUpload: BeforeUpload | undefined;
  /** `global` (one switch, default), `per-file` (a picker per file before upload) or `none`. */
  declare conversion: 'global' | 'per-file' | 'none';
  /** ID of the folder files (and the folders of a dropped folder) go into; unset: the uploader's, else the root. */
  declare parentId: string | undefined;
  /** Put every file directly into `parent-id`, not into the folders of its relative path. */
  declare flatten: boolean;
  /** Show the "share with" step once files are uploaded. */
  declare share: boolean;
  /** Form field name of the uploaded file IDs. */
  declare name: string;
  /** The uploader to use; when unset and `base-url` is set, one is created. */
  declare uploader: Uploader | undefined;
  /** Source MIME type → native kinds, instead of fetching the about resource. */
  declare importFormats: ImportFormats | undefined;
  /** Returns the bearer token. */
  declare getAccessToken: (() => string | Promise<string>) | undefined;
  /**
   * The app's store client (`createStoreClient`): the uploader this element creates is made with it (its base URL and
   * token are the defaults), and a change of `token`, `getAccessToken` or `account` makes the client's
   * `accountChanged` — the one call that moves the app's watchers and uploaders made with it, this one included.
   */
  declare client: UploaderClient | undefined;
  /** Grants access; defaults to a batch of permission creates against `base-url`. */
  declare shareFiles: ShareFunction | undefined;

  declare protected convertAll: boolean;
  declare protected ocrLanguage: string;
  declare protected pending: PickedFile[];
  declare protected shareMessage: string;
  declare protected shareError: string;
}
