import { html, nothing } from 'lit';
import type { PropertyDeclarations } from 'lit';
import { emit } from '../events.ts';
import type { PickedFile, RejectedFile } from '../events.ts';
import { collectFromDataTransfer, collectFromFileList } from '../../headless/intake/collect-files.ts';
import { formatBytes } from '../internal/format.ts';
import { countAdded } from '../internal/count-added.ts';
import { loadedIntake, loadIntake, preloadIntake } from '../../headless/intake/lazy-intake.ts';
import { pickWithHandles } from '../../headless/intake/pick-with-handles.ts';
import { StoreElement } from '../internal/store-element.ts';
import { themeStyles } from '../internal/theme.ts';
import type { BeforeUpload, Uploader } from '../../uploader/index.ts';
import { holdingNavigation } from '../../uploader/page/navigation-hold.ts';
import { dropzoneStyles } from './store-dropzone.styles.ts';

/**
 * Keyboard: Tab reaches "Browse files" and "Browse folder" (Enter or Space opens the browser's chooser: the File
 * System Access picker where the browser has one, whose file handles let an upload resume after a reload without
 * choosing the file again; a file input elsewhere); Escape closes the list of refused files. Files are checked
 * against `accept`, `multiple`, `max-file-size`, `min-file-size`, `max-files` and `max-total-size`, then given to
 * the `beforeUpload` hook when one is set; refused ones are listed and reported with `store-files-reject`, never
 * silently dropped. Accepted files (as the hook changed them) are announced with the cancelable `store-files-add`;
 * unless it is cancelled and when an `uploader` is set, each is handed to `uploader.add` (and each empty folder of a
 * drop to `uploader.addFolder`), into `parent-id` and the folders of its relative path, or straight into
 * `parent-id` with `flatten`.
 *
 * @summary Where files enter: drop files or whole folders, paste, or browse for files or a folder.
 *
 * @slot - Extra content shown under the buttons (a hint, an icon).
 *
 * @csspart base - The drop area.
 * @csspart prompt - The instruction text.
 * @csspart buttons - The row of browse buttons.
 * @csspart browse-button - The "browse files" button.
 * @csspart folder-button - The "browse folder" button.
 * @csspart rejections - The list of refused files.
 *
 * @cssproperty --store-dropzone-border-color - Dashed border colour (falls back to `--store-color-border`).
 * @cssproperty --store-dropzone-border-width - Border width.
 * @cssproperty --store-dropzone-radius - Corner radius (falls back to `--store-radius`).
 * @cssproperty --store-dropzone-padding - Inner spacing.
 * @cssproperty --store-dropzone-background - Background (falls back to `--store-color-surface`).
 * @cssproperty --store-dropzone-active-border-color - Border colour while files are dragged over.
 * @cssproperty --store-dropzone-active-background - Background while files are dragged over.
 * @cssproperty --store-dropzone-error-color - Colour of the refused-files list.
 *
 * @event store-files-add - Files were accepted; cancelable. Detail: `{ files: PickedFile[], folders: string[] }`
 *   (`folders`: the paths of a drop's empty folders).
 * @event store-files-reject - Files were refused. Detail: `{ files: RejectedFile[] }` with a `reason` each.
 *
 * @attr drag-over - Present while files are dragged over (also `:state(drag-over)`).
 * @attr max-file-size - Largest accepted file in bytes; 0 means no limit.
 * @attr min-file-size - Smallest accepted file in bytes; 0 means no limit.
 * @attr max-files - Most files accepted, counting files already in the list; 0 means no limit.
 * @attr max-total-size - Most bytes accepted in total, counting files already in the list (not cancelled or
 *   removed); 0 means no limit.
 * @attr parent-id - ID of the folder files go into (default: the uploader's, else the user's root).
 * @attr flatten - Put files directly into `parent-id`, ignoring the folders of their relative paths.
 */
export class StoreDropzone extends StoreElement {
  static override styles = [themeStyles, dropzoneStyles];
  // Focusing the element (or clicking its empty area) focuses "Browse files": a paste then lands here, and a form
  // can anchor a validation message on it.
  static override shadowRootOptions: ShadowRootInit = { ...StoreElement.shadowRootOptions, delegatesFocus: true };

  static override properties: PropertyDeclarations = {
    accept: {},
    multiple: { type: Boolean },
    maxFileSize: { type: Number, attribute: 'max-file-size' },
    minFileSize: { type: Number, attribute: 'min-file-size' },
    maxFiles: { type: Number, attribute: 'max-files' },
    maxTotalSize: { type: Number, attribute: 'max-total-size' },
    disabled: { type: Boolean, reflect: true },
    parentId: { attribute: 'parent-id' },
    flatten: { type: Boolean },
    uploader: { attribute: false },
    beforeUpload: { attribute: false },
    rejected: { state: true, attribute: false },
    dragging: { state: true, attribute: false },
  };

  /** File types accepted, as in `<input accept>`: `.csv,image/*,application/pdf`. Empty accepts all. */
  declare accept: string;

  /** Allow more than one file at a time (like `<input multiple>`). */
  declare multiple: boolean;

  /** Largest accepted file in bytes; 0 means no limit. */
  declare maxFileSize: number;

  /** Smallest accepted file in bytes; 0 means no limit. */
  declare minFileSize: number;

  /** Most files accepted, counting files already in the uploader; 0 means no limit. */
  declare maxFiles: number;

  /** Most bytes accepted in total, counting the files already in the uploader that are not cancelled; 0 means no limit. */
  declare maxTotalSize: number;

  /**
   * Called for each file that passed the restrictions, before `store-files-add`: return `false` to refuse it, a
   * `File`/`Blob` to upload instead, or `{ name, metadata, convertTo }`; may be async; a throw refuses the file
   * with the error's message. Refused files are listed and reported like the restrictions' (`skipped`, `hook-error`).
   * A returned file meets the size and count rules again (not `accept`: its type is the page's choice).
   */
  declare beforeUpload: BeforeUpload | undefined;

  /**
   * What is already in the list these files join, for `max-files` and `max-total-size`, when that is not `uploader`'s
   * list (`<store-uploader>` sets it). Read when files arrive; not rendered.
   */
  alreadyAdded: (() => { files: number; bytes: number }) | undefined;

  /** Refuse all input. */
  declare disabled: boolean;

  /** The folder files (and the folders of their relative paths) go into; unset: the uploader's `parentId`. */
  declare parentId: string | undefined;

  /** Put every file directly into `parentId`, not into the folders of its relative path. */
  declare flatten: boolean;

  /** When set, accepted files go to `uploader.add` unless `store-files-add` is cancelled. */
  declare uploader: Uploader | undefined;

  /** The files refused most recently, as listed under the drop area. */
  declare rejected: RejectedFile[];

  declare protected dragging: boolean;

  readonly #internals = this.attachInternals();
  // dragenter/dragleave fire for every child crossed; counting them keeps the state steady over children.
  #dragDepth = 0;

  constructor() {
    super();
    this.accept = '';
    this.multiple = false;
    this.maxFileSize = 0;
    this.minFileSize = 0;
    this.maxFiles = 0;
    this.maxTotalSize = 0;
    this.disabled = false;
    this.flatten = false;
    this.rejected = [];
    this.dragging = false;
    // What handles arriving files loads at the first sign of intent, so that they do not wait for it.
    for (const intent of ['pointerenter', 'focusin', 'dragenter'] as const)
      this.addEventListener(intent, preloadIntake, { once: true });
    this.addEventListener('dragenter', this.#onDragEnter);
    this.addEventListener('dragover', this.#onDragOver);
    this.addEventListener('dragleave', this.#onDragLeave);
    this.addEventListener('drop', this.#onDrop);
    this.addEventListener('paste', this.#onPaste);
    this.addEventListener('keydown', (event: KeyboardEvent) => {
      if (event.key === 'Escape' && this.rejected.length) this.#dismiss();
    });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#setDragging(false);
  }

  /**
   * Opens the browser's file chooser: the File System Access picker where there is one (the files keep their
   * handles, so an interrupted upload resumes after a reload without choosing them again), else the file input.
   * Call it from a click or key press.
   */
  browseFiles(): void {
    if (!this.disabled) this.#browse('files');
  }

  /** Opens the browser's folder chooser (`showDirectoryPicker` where there is one, else a `webkitdirectory` input). */
  browseFolder(): void {
    if (!this.disabled) this.#browse('folder');
  }

  #browse(kind: 'files' | 'folder'): void {
    void pickWithHandles(kind, { multiple: this.multiple, accept: this.accept }).then((outcome) => {
      if (outcome === 'fallback') this.#input(kind).click();
      else if (outcome !== 'cancelled') void this.addFiles(outcome);
    });
  }

  /**
   * Checks and adds files as if they had been dropped; what the drop, paste and browse paths all end in. `folders`
   * are the paths of empty folders to create beside them (`photos/empty`). Rejects only when the code that checks
   * them cannot load (the page went offline before any sign of intent).
   */
  addFiles(files: readonly PickedFile[], folders: readonly string[] = []): Promise<void> {
    // From the pick to the uploader's `add` (which holds on until its worker has the files), leaving is confirmed.
    return holdingNavigation(this.#addFiles(files, folders));
  }

  async #addFiles(files: readonly PickedFile[], folders: readonly string[]): Promise<void> {
    if (this.disabled || files.length + folders.length === 0) return;
    // Once loaded (at the first sign of intent), the checks run and `store-files-add` fires in the caller's task.
    const { applyRestrictions, addPicked, throughHook } = loadedIntake() ?? (await loadIntake());
    const already = this.alreadyAdded?.() ?? countAdded(this.uploader?.snapshot.tasks ?? []);
    const rules = {
      multiple: this.multiple,
      maxFileSize: this.maxFileSize,
      minFileSize: this.minFileSize,
      maxFiles: this.maxFiles,
      alreadyAdded: already.files,
      maxTotalSize: this.maxTotalSize,
      alreadyAddedBytes: already.bytes,
    };
    const checked = applyRestrictions(files, { ...rules, accept: this.accept });
    const hook = checked.accepted.length ? this.beforeUpload : undefined;
    // What the hook returns meets the size rules too (a replacement can be larger); its type is the page's choice.
    // The one runner (`uploader/page/before-upload.ts`) loads on first use, on pages that set a hook.
    const run = hook && (await (await import('../internal/uploader-facade.ts')).loadBeforeUpload());
    const hooked = hook && run && (await throughHook(run, hook, checked.accepted));
    const rechecked = hooked && applyRestrictions(hooked.accepted, rules);
    const accepted = rechecked ? rechecked.accepted : checked.accepted;
    this.rejected = [];
    this.refuse(
      hooked && rechecked ? [...checked.rejected, ...hooked.rejected, ...rechecked.rejected] : checked.rejected,
    );
    if (accepted.length === 0 && folders.length === 0) return;
    if (emit(this, 'store-files-add', { files: accepted, folders: [...folders] }) && this.uploader)
      await addPicked(this.uploader, accepted, {
        parentId: this.parentId,
        flatten: this.flatten,
        folders,
        onReject: (r) => this.refuse(r),
      });
  }

  /**
   * Lists more refused files under the drop area and fires `store-files-reject` for them: what the restrictions and
   * `beforeUpload` do, for refusals decided elsewhere (the uploader's own hook, an app's check).
   */
  refuse(files: readonly RejectedFile[]): void {
    if (files.length === 0) return;
    this.rejected = [...this.rejected, ...files];
    emit(this, 'store-files-reject', { files: [...files] });
  }

  override render() {
    const t = this.t;
    const dz = t.dropzone;
    const bytes: Partial<Record<RejectedFile['reason'], number>> = {
      size: this.maxFileSize,
      'min-size': this.minFileSize,
      'total-size': this.maxTotalSize,
    };
    const limit = (r: RejectedFile): string =>
      r.reason === 'count'
        ? String(this.maxFiles)
        : r.reason === 'hook-error'
          ? (r.message ?? '')
          : r.reason in bytes
            ? formatBytes(bytes[r.reason]!, t.locale)
            : '';
    return html`
      <div part="base" class="base" role="group" aria-label=${dz.label}>
        <p part="prompt" class="prompt" id="prompt">${this.dragging ? dz.dragOver : dz.prompt}</p>
        <div part="buttons" class="buttons">
          <button part="browse-button" class="primary" type="button" ?disabled=${this.disabled} @click=${() => this.browseFiles()}>
            ${dz.browse}
          </button>
          <button part="folder-button" type="button" ?disabled=${this.disabled} @click=${() => this.browseFolder()}>
            ${dz.browseFolder}
          </button>
        </div>
        <slot></slot>
        <input id="files" type="file" hidden tabindex="-1" accept=${this.accept || nothing} ?multiple=${this.multiple} @change=${this.#onInput} />
        <input id="folder" type="file" hidden tabindex="-1" webkitdirectory @change=${this.#onInput} />
        <div part="rejections" class="rejections" role="status">${this.rejected.length ? this.#renderRejections(limit) : nothing}</div>
      </div>
    `;
  }

  #renderRejections(limit: (rejected: RejectedFile) => string) {
    const dz = this.t.dropzone;
    return html`
      <h2>${dz.rejectedTitle}</h2>
      <ul>
        ${this.rejected.map((r) => html`<li dir="auto" data-reason=${r.reason}>${dz.reject[r.reason](r.relativePath, limit(r))}</li>`)}
      </ul>
      <button type="button" class="dismiss" @click=${this.#dismiss}>${dz.dismiss}</button>
    `;
  }

  /**
   * Closes the list of refused files. Focus was on its button (clicked, or Escape pressed inside), which goes away:
   * it moves to "Browse files" (not via `this.focus()`, which a delegating host ignores while focus is inside).
   */
  #dismiss = (): void => {
    this.rejected = [];
    this.renderRoot.querySelector<HTMLElement>('[part="browse-button"]')?.focus();
  };

  #input(id: 'files' | 'folder'): HTMLInputElement {
    return this.renderRoot.querySelector<HTMLInputElement>(`#${id}`)!;
  }

  #onInput = (event: Event): void => {
    const input = event.target as HTMLInputElement;
    const picked = input.files ? collectFromFileList(input.files) : [];
    // Clearing lets the same file be chosen again right after.
    input.value = '';
    void this.addFiles(picked);
  };

  #hasFiles(event: DragEvent): boolean {
    return !!event.dataTransfer && Array.from(event.dataTransfer.types).includes('Files');
  }

  #onDragEnter = (event: DragEvent): void => {
    if (this.disabled || !this.#hasFiles(event)) return;
    event.preventDefault();
    this.#dragDepth++;
    this.#setDragging(true);
  };

  #onDragOver = (event: DragEvent): void => {
    if (this.disabled || !this.#hasFiles(event)) return;
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
  };

  #onDragLeave = (): void => {
    if (this.#dragDepth === 0) return;
    this.#dragDepth--;
    if (this.#dragDepth === 0) this.#setDragging(false);
  };

  #onDrop = (event: DragEvent): void => {
    this.#setDragging(false);
    if (this.disabled || !event.dataTransfer) return;
    event.preventDefault();
    void holdingNavigation(collectFromDataTransfer(event.dataTransfer)).then(({ files, folders }) =>
      this.addFiles(files, folders),
    );
  };

  #onPaste = (event: ClipboardEvent): void => {
    const data = event.clipboardData;
    if (this.disabled || !data || !Array.from(data.types).includes('Files')) return;
    event.preventDefault();
    void holdingNavigation(collectFromDataTransfer(data)).then(({ files, folders }) => this.addFiles(files, folders));
  };

  #setDragging(on: boolean): void {
    if (!on) this.#dragDepth = 0;
    this.dragging = on;
    this.toggleAttribute('drag-over', on);
    if (on) this.#internals.states.add('drag-over');
    else this.#internals.states.delete('drag-over');
  }
}
