import { html, nothing } from 'lit';
import type { PropertyValues } from 'lit';
import type { PickedFile } from '../events.ts';
import { isOcrSource, targetsFor } from '../conversion-picker/import-formats.ts';
import { DOCUMENT_MIME } from '../../protocol/index.ts';
import type { StoreConversionPicker } from '../conversion-picker/store-conversion-picker.ts';
import type { StoreDropzone } from '../dropzone/store-dropzone.ts';
import '../conversion-picker/define.ts';
import '../dropzone/define.ts';
import '../progress-list/define.ts';
import type { DownloadSource } from '../progress-list/download-menu.ts';
import { keepFocus } from '../internal/keep-focus.ts';
import { StoreElement } from '../internal/store-element.ts';
import { themeStyles } from '../internal/theme.ts';
import { UploaderController } from '../internal/uploader-controller.ts';
import type { Uploader } from '../../uploader/index.ts';
import type { PickedAddOptions } from '../../headless/intake/add-picked.ts';
import { loadedIntake, loadIntake } from '../../headless/intake/lazy-intake.ts';
import { countAdded } from '../internal/count-added.ts';
import { renderGlobalConversion } from './global-conversion.ts';
import { FormValue } from './form-value.ts';
import { DROPZONE_PARTS, LIST_PARTS } from './inner-parts.ts';
import { ImportFormatsLoader } from './import-formats-loader.ts';
import { OwnedUploader } from './owned-uploader.ts';
import { InterruptedUploads } from './interrupted-uploads.ts';
import { pendingFiles, shareStep } from './lazy-views.ts';
import { shareHostOf } from './share-host.ts';
import type { ShareStepHost } from './share-step.ts';
import { uploaderStyles } from './store-uploader.styles.ts';
import { StoreUploaderProperties } from './store-uploader-properties.ts';
import { holdNavigation } from '../../uploader/page/navigation-hold.ts';

/** The OCR language a conversion sends where the service runs OCR: an image or a PDF converted to a document. */
const ocrIn = (language: string | undefined) => (picked: PickedFile, convertTo: string) =>
  convertTo === DOCUMENT_MIME && isOcrSource(picked.file.type) ? language : undefined;

/**
 * Combines `<store-dropzone>`, `<store-conversion-picker>` (one global switch, or one picker per file with
 * `conversion="per-file"`) and `<store-progress-list>`, lists uploads interrupted in an earlier page life for
 * resuming, and with `share` offers a "share with" step that grants access to every uploaded file in one batch.
 * Give it an `uploader` to share one between elements, or a `base-url` and it creates its own (the worker-based
 * uploader, loaded lazily). Form-associated: its value is the uploaded file IDs (one form entry each), and the form
 * cannot submit while uploads are pending.
 *
 * @summary The whole upload flow in one element: drop, choose conversions, watch progress, share, resume.
 *
 * @csspart base - The wrapper.
 * @csspart dropzone - The inner `<store-dropzone>`; its parts are re-exported under their own names (`browse-button`,
 *   `folder-button`, `prompt`, `buttons`, `rejections`), its `base` as `dropzone-base`.
 * @csspart conversion - The conversion choice.
 * @csspart pending - The per-file list of files waiting to be uploaded.
 * @csspart progress-list - The inner `<store-progress-list>`; its parts are re-exported under their own names (`row`,
 *   `row-<state>`, `name`, `progress`, `progress-bar`, `state`, `action`, `action-download`, `download-as`, …), its
 *   `base` as `progress-list-base`. Its finished rows download their files back from `base-url` ("Download", or
 *   "Download as" a format the service exports a converted file to).
 * @csspart interrupted - The list of interrupted uploads.
 * @csspart resume-all - Its "Resume all" button: resumes every upload whose kept file handle or copy still reads as
 *   the same file, asking for read permission in that click where the browser wants it, with no file dialog.
 * @csspart interrupted-changed - The note on an interrupted upload whose file changed since it began (not resumed).
 * @csspart share - The share step.
 *
 * @cssproperty --store-uploader-gap - Space between the sections.
 * @cssproperty --store-uploader-padding - Inner spacing.
 * @cssproperty --store-uploader-background - Background.
 *
 * @event change - The value (uploaded file IDs) changed.
 * @event store-files-add - Re-fired from the inner dropzone; cancelable: cancelling it stops the upload.
 * @event store-files-reject - Re-fired from the inner dropzone.
 * @event store-task-action - Re-fired from the inner progress list; cancelable.
 * @event store-share-complete - The share step finished. Detail: `{ fileIds, grants, failed }`.
 */
export class StoreUploader extends StoreUploaderProperties {
  static formAssociated = true;
  static override styles = [themeStyles, uploaderStyles];
  // A form's blocked submit focuses the invalid control: delegating makes the host focusable, and the validity
  // anchor (the dropzone) is where the browser shows the message.
  static override shadowRootOptions: ShadowRootInit = { ...StoreElement.shadowRootOptions, delegatesFocus: true };

  readonly #internals = this.attachInternals();
  readonly #controller = new UploaderController(this, () => this.#syncForm());
  readonly #form = new FormValue(this.#internals, () =>
    this.dispatchEvent(new Event('change', { bubbles: true, composed: true })),
  );
  readonly #interrupted = new InterruptedUploads(
    this,
    () => this.#keepFocus(),
    () => this.t,
  );
  readonly #formats = new ImportFormatsLoader({
    importFormats: () => this.importFormats,
    baseUrl: () => this.baseUrl,
    token: () => this.#tokenSource(),
    loaded: () => this.requestUpdate(),
  });
  /** An uploader this element created (from `base-url`), and so ends when it leaves the page. */
  readonly #owned = new OwnedUploader({
    element: this,
    settings: this,
    getAccessToken: () => this.#tokenSource(),
    created: (u) => this.#follow(u),
    stillWanted: () => !this.uploader && this.isConnected,
  });
  constructor() {
    super();
    this.baseUrl = this.token = this.accept = '';
    this.maxFileSize = this.minFileSize = this.maxFiles = this.maxTotalSize = 0;
    this.conversion = 'global';
    this.share = false;
    this.flatten = false;
    this.name = '';
    this.convertAll = false;
    this.ocrLanguage = '';
    this.pending = [];
    this.shareMessage = '';
    this.shareError = '';
  }

  /** IDs of the files uploaded so far (the form value). */
  get value(): string[] {
    return this.#form.value;
  }

  /** The uploader in use: the given one, or the one this element creates from `base-url` (asking starts loading it). */
  get activeUploader(): Uploader | undefined {
    return this.uploader ?? this.#owned.demand();
  }
  /**
   * Resolves with the uploader in use once it is there: the given one, or the one this element creates from
   * `base-url`, whose load this starts. `undefined` when there is neither (or the element is not on the page), or
   * when loading failed (logged). Scripts that drive the element's uploader await this rather than poll
   * `activeUploader`.
   */
  getUploader(): Promise<Uploader | undefined> {
    return this.uploader ? Promise.resolve(this.uploader) : this.#owned.ready();
  }
  /** The same without starting a load: what the element itself reads. */
  get #active(): Uploader | undefined {
    return this.uploader ?? this.#owned.current;
  }

  /** The form this element belongs to (form association, as a native control has it). */ get form(): HTMLFormElement | null {
    return this.#internals.form;
  }
  /** Invalid (`customError`) while files upload or wait for a conversion choice. */ get validity(): ValidityState {
    return this.#internals.validity;
  }
  /** Why the form cannot submit yet, in the page's language; `''` when valid. */ get validationMessage(): string {
    return this.#internals.validationMessage;
  }
  /** `false` (and an `invalid` event) while uploads are pending. */ checkValidity(): boolean {
    return this.#internals.checkValidity();
  }
  /** As `checkValidity()`, and shows the message on the dropzone. */ reportValidity(): boolean {
    return this.#internals.reportValidity();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#owned.want(!this.uploader);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    // A created uploader is this element's to end; its sessions persist and are offered for resume next time.
    this.#owned.destroy();
  }

  /** The share step and the files waiting for a conversion choice, when the next render shows them. */
  protected override pendingLoad(): Promise<unknown> | undefined {
    // The uploader's snapshot, not `value`: on the first update `value` is filled in `willUpdate`, after this.
    const uploaded =
      this.#form.value.length > 0 || !!this.#active?.snapshot.tasks.some((t) => t.state === 'done' && t.file?.id);
    const loads = [
      this.share && uploaded && !shareStep.loaded() && shareStep.load(),
      this.conversion === 'per-file' && this.pending.length > 0 && !pendingFiles.loaded() && pendingFiles.load(),
    ];
    // eslint-disable-next-line @typescript-eslint/await-thenable -- a load not needed is `false`; Promise.all passes it through.
    return loads.some(Boolean) ? Promise.all(loads) : undefined;
  }

  /**
   * The signed-in account signs out (see `Uploader.signOut`): its uploads leave the list, and are cancelled with their
   * stored sessions (`'cancel'`, the default), end first (`'finish'`) or wait for the account (`'keep'`). Call it
   * before the page signs out, and set the next account's `token` (or `account`) after.
   */
  async signOut(options?: { uploads?: 'cancel' | 'finish' | 'keep' }): Promise<void> {
    await this.#accountChange(this.#active?.signOut(options));
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('baseUrl') && this.isConnected) this.#owned.want(!this.uploader);
    // Another account signed in on this page: the list shows its uploads only (the first update sets, not changes).
    if (this.hasUpdated && (changed.has('token') || changed.has('getAccessToken') || changed.has('account')))
      // With a client, its call is the one that moves every part bound to it, this element's uploader included.
      void this.#accountChange((this.client ?? this.#active)?.accountChanged(this.account || undefined));
    if (changed.has('uploader')) this.#follow(this.#active);
    if (changed.has('baseUrl')) this.#formats.reset();
    // The about resource is fetched once conversion is asked for (the switch, or per-file pickers on screen), not
    // on load: a page whose users never convert never loads the service client on the main thread.
    if (this.conversion === 'per-file' ? this.pending.length > 0 : this.convertAll) void this.#formats.load();
  }

  /** The interrupted uploads listed are the last account's: gone at once, and asked for again once `change` is done. */
  async #accountChange(change: Promise<void> | undefined): Promise<void> {
    this.#interrupted.set([]);
    await change;
    this.#interrupted.follow(this.#active);
  }

  #tokenSource = (): string | Promise<string> =>
    this.getAccessToken ? this.getAccessToken() : this.token || this.client?.accessToken() || '';

  #downloads: DownloadSource | undefined;
  /** Finished rows fetch their files back from `base-url`; one object per URL, so the list re-renders only on a change. */
  #downloadFrom(): DownloadSource | undefined {
    if (!this.baseUrl) return undefined;
    if (this.#downloads?.baseUrl !== this.baseUrl)
      this.#downloads = { baseUrl: this.baseUrl, getAccessToken: this.#tokenSource };
    return this.#downloads;
  }

  #follow(uploader: Uploader | undefined): void {
    this.#controller.follow(uploader);
    this.#interrupted.follow(uploader);
    this.#syncForm();
  }

  /** Form value = uploaded IDs; invalid while anything is still uploading or waiting for a conversion choice. */
  #syncForm(): void {
    this.#form.sync({
      tasks: this.#controller.state.tasks,
      waiting: this.pending.length,
      name: this.name,
      pendingMessage: this.t.uploader.pendingValidity,
      // Anchored on the dropzone (it delegates focus), so a blocked submit focuses it and shows the message there.
      anchor: this.renderRoot?.querySelector<HTMLElement>('store-dropzone') ?? undefined,
    });
  }

  /** A form reset empties the value (like a file input) and the files waiting for a conversion choice. */
  formResetCallback(): void {
    this.#form.reset();
    this.pending = [];
    this.shareMessage = '';
    this.#syncForm();
  }

  override render() {
    const t = this.t;
    const uploader = this.#active;
    const doneIds = this.#form.value;
    return html`
      <div part="base" class="base">
        ${uploader || this.baseUrl ? nothing : html`<p class="error" role="alert">${t.uploader.noUploader}</p>`}
        ${this.#interrupted.render(t)}
        ${this.conversion === 'global' ? renderGlobalConversion(t, { convertAll: this.convertAll, ocrLanguage: this.ocrLanguage }, (change) => Object.assign(this, change)) : nothing}
        <store-dropzone
          part="dropzone"
          exportparts=${DROPZONE_PARTS}
          multiple
          accept=${this.accept}
          max-file-size=${this.maxFileSize}
          min-file-size=${this.minFileSize}
          max-files=${this.maxFiles}
          max-total-size=${this.maxTotalSize}
          .beforeUpload=${this.beforeUpload}
          .alreadyAdded=${this.#alreadyAdded}
          color-scheme=${this.colorScheme ?? nothing}
          .i18n=${this.i18n}
          @store-files-add=${this.#onAdd}
        ></store-dropzone>
        ${
          this.conversion === 'per-file' && this.pending.length && pendingFiles.loaded()
            ? pendingFiles.loaded()!.renderPending(
                t,
                this.pending,
                { formats: this.#formats.now, i18n: this.i18n, colorScheme: this.colorScheme },
                {
                  upload: this.#uploadPending,
                  clear: () => {
                    this.pending = [];
                    this.#keepFocus();
                  },
                },
              )
            : nothing
        }
        <store-progress-list
          part="progress-list"
          exportparts=${LIST_PARTS}
          .uploader=${uploader}
          .downloadFrom=${this.#downloadFrom()}
          .i18n=${this.i18n}
          color-scheme=${this.colorScheme ?? nothing}
          @store-task-action=${() => queueMicrotask(() => this.#syncForm())}
        ></store-progress-list>
        ${this.share && doneIds.length ? this.#renderShare(doneIds.length) : nothing}
      </div>
    `;
  }

  #renderShare(count: number) {
    const step = shareStep.loaded();
    if (!step) {
      // Only when the value changed between scheduling and rendering, or the load failed: render once it is here.
      shareStep.load().then(
        () => this.requestUpdate(),
        () => undefined,
      );
      return nothing;
    }
    return step.renderShareStep(this.#shareHost, count);
  }

  /** The share step's view of this element. */
  readonly #shareHost: ShareStepHost = shareHostOf(this, {
    words: () => this.t.uploader,
    fileIds: () => this.value,
    shareFiles: () => this.shareFiles,
    baseUrl: () => this.baseUrl,
    token: () => this.#tokenSource(),
    shown: () => ({ error: this.shareError, message: this.shareMessage }),
    show: (error, message) => {
      this.shareError = error;
      this.shareMessage = message;
    },
  });

  #onAdd = (event: CustomEvent<{ files: PickedFile[]; folders: string[] }>): void => {
    // The dropzone has no uploader here: this element adds, with conversion options. Waiting for the dispatch to
    // finish lets a page listener cancel the event (still bubbling now) like any other `store-files-add`.
    // Leaving is confirmed until the files are the uploader's (which holds on until its worker has them): the
    // uploader may still be loading.
    const release = holdNavigation();
    queueMicrotask(() => {
      if (event.defaultPrevented) return release();
      this.#owned.whenReady(this.#active, () => void this.#add(event.detail).finally(release));
    });
  };

  async #add({ files, folders }: { files: PickedFile[]; folders: string[] }): Promise<void> {
    // Empty folders need no conversion choice: they are made now (the uploader retries a failed create).
    void this.#addPicked([], { folders });
    if (this.conversion === 'per-file') {
      this.pending = [...this.pending, ...files];
      this.#syncForm();
      return;
    }
    const { convertAll, ocrLanguage } = this;
    // Files dropped right after the switch was turned on wait for the formats rather than go unconverted.
    const formats = convertAll && (this.#formats.now ?? (await this.#formats.load()));
    await this.#addPicked(files, {
      ocrLanguage: ocrIn(ocrLanguage),
      ...(convertAll && { convertTo: (picked) => targetsFor(formats || undefined, picked.file.type)[0] }),
    });
  }

  /**
   * Hands files to the uploader through the intake (the inner dropzone loaded it before it fired), into this
   * element's folder; the dropzone lists what the uploader's own hook refuses.
   */
  async #addPicked(files: readonly PickedFile[], options: PickedAddOptions): Promise<void> {
    const uploader = this.#active;
    if (!uploader) return;
    const { addPicked } = loadedIntake() ?? (await loadIntake());
    await addPicked(uploader, files, {
      ...options,
      parentId: this.parentId,
      flatten: this.flatten,
      onReject: (r) => this.renderRoot.querySelector<StoreDropzone>('store-dropzone')?.refuse(r),
    });
  }

  #uploadPending = (): void => {
    const pickers = [...this.renderRoot.querySelectorAll<StoreConversionPicker>('store-conversion-picker[data-index]')];
    const files = this.pending;
    this.pending = [];
    // Pending files were listed once the uploader was ready (`#add`): it is there to add to.
    files.forEach((picked, i) => {
      const picker = pickers.find((p) => p.dataset['index'] === String(i));
      void this.#addPicked([picked], {
        convertTo: picker?.value || undefined,
        ocrLanguage: ocrIn(picker?.ocrLanguage),
      });
    });
    this.#syncForm();
    this.#keepFocus();
  };

  // The uploader's own snapshot: the controller's may lag a change (a cancel) by one event.
  #alreadyAdded = () => countAdded(this.#active?.snapshot.tasks ?? [], this.pending);

  /** After the next render, when the focused control has gone, focuses the first interrupted item or the dropzone. */
  #keepFocus(): void {
    void this.updateComplete.then(() => {
      const root = this.renderRoot as ShadowRoot;
      keepFocus(root, root.querySelector('[part="interrupted"] button'), root.querySelector('store-dropzone'));
    });
  }
}
