import { html, nothing } from 'lit';
import type { PropertyDeclarations, PropertyValues } from 'lit';
import { DOCUMENT_MIME } from '../../protocol/index.ts';
import { StoreElement } from '../internal/store-element.ts';
import { themeStyles } from '../internal/theme.ts';
import { isOcrSource, loadImportFormats, targetsFor } from './import-formats.ts';
import type { ImportFormats } from './import-formats.ts';
import { conversionPickerStyles } from './store-conversion-picker.styles.ts';

/** OCR languages offered by default (BCP 47); names come from `Intl.DisplayNames` in the reader's language. */
export const DEFAULT_OCR_LANGUAGES = ['en', 'fr', 'de', 'es', 'it', 'pt', 'nl', 'pl', 'ar', 'he', 'ja', 'zh'];

/**
 * The choices come from the service's `importFormats` (the about resource, fetched once per `base-url` and
 * cached), or from the `importFormats` property, which needs no network. For images and PDFs converted to a
 * document, an OCR language select appears. Form-associated: its form value is the chosen native kind, or `''` to
 * keep the file as is.
 *
 * @summary Chooses how one file type is stored: kept as is, or converted to a native kind the service allows.
 *
 * @csspart base - The wrapper.
 * @csspart label - The label of the kind select.
 * @csspart select - The kind select.
 * @csspart ocr-label - The label of the OCR language select.
 * @csspart ocr-select - The OCR language select.
 *
 * @cssproperty --store-conversion-picker-gap - Space between the controls.
 * @cssproperty --store-conversion-picker-background - Background (falls back to `--store-color-surface`).
 *
 * @event change - The chosen kind or OCR language changed (native `Event`, bubbles and composed).
 */
export class StoreConversionPicker extends StoreElement {
  static formAssociated = true;
  static override styles = [themeStyles, conversionPickerStyles];
  static override shadowRootOptions: ShadowRootInit = { ...StoreElement.shadowRootOptions, delegatesFocus: true };

  static override properties: PropertyDeclarations = {
    mimeType: { attribute: 'mime-type' },
    value: {},
    ocrLanguage: { attribute: 'ocr-language' },
    name: { reflect: true },
    disabled: { type: Boolean, reflect: true },
    baseUrl: { attribute: 'base-url' },
    token: {},
    importFormats: { attribute: false },
    ocrLanguages: { attribute: false },
    getAccessToken: { attribute: false },
    loadState: { state: true, attribute: false },
  };

  /** MIME type of the file being uploaded (e.g. `text/csv`). */
  declare mimeType: string;
  /** The chosen native kind, or `''` to keep the file as is. */
  declare value: string;
  /** BCP 47 OCR language for images and PDFs converted to a document; `''` lets the service decide. */
  declare ocrLanguage: string;
  /** Form field name. */
  declare name: string;
  /** Turns both selects off; a disabled `<fieldset>` around the picker sets it too. */
  declare disabled: boolean;
  /** Service base URL whose about resource lists the conversions. */
  declare baseUrl: string;
  /** A development bearer token for the about request (use `getAccessToken` in production). */
  declare token: string;
  /** Source MIME type → native kinds; when set, nothing is fetched. */
  declare importFormats: ImportFormats | undefined;
  /** OCR languages offered. */
  declare ocrLanguages: string[];
  /** Returns the bearer token for the about request. */
  declare getAccessToken: (() => string | Promise<string>) | undefined;
  declare protected loadState: 'idle' | 'loading' | 'failed';

  readonly #internals = this.attachInternals();
  #loaded: ImportFormats | undefined;

  constructor() {
    super();
    this.mimeType = '';
    this.value = '';
    this.ocrLanguage = '';
    this.name = '';
    this.disabled = false;
    this.baseUrl = '';
    this.token = '';
    this.ocrLanguages = DEFAULT_OCR_LANGUAGES;
    this.loadState = 'idle';
  }

  /** The native kinds offered for the current MIME type. */
  get targets(): string[] {
    return targetsFor(this.importFormats ?? this.#loaded, this.mimeType);
  }

  /** The form this picker belongs to. */
  get form(): HTMLFormElement | null {
    return this.#internals.form;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if ((changed.has('baseUrl') || changed.has('importFormats')) && !this.importFormats && this.baseUrl)
      void this.#load();
    if (
      this.value &&
      this.loadState !== 'loading' &&
      (this.importFormats || this.#loaded) &&
      !this.targets.includes(this.value)
    ) {
      // A kind the new MIME type cannot become would be refused by the service: fall back to keeping the file.
      this.value = '';
    }
    this.#internals.setFormValue(this.value);
  }

  async #load(): Promise<void> {
    this.loadState = 'loading';
    const getToken = this.getAccessToken ?? (() => this.token);
    try {
      this.#loaded = await loadImportFormats(this.baseUrl, getToken);
      this.loadState = 'idle';
    } catch {
      this.loadState = 'failed';
    }
  }

  /** Restores the value when the form is reset. */
  formResetCallback(): void {
    this.value = '';
  }

  /** Follows a disabled `<fieldset>` or form around the picker (called by the browser). */
  formDisabledCallback(disabled: boolean): void {
    this.disabled = disabled;
  }

  override render() {
    const t = this.t;
    const c = t.conversion;
    const targets = this.targets;
    const showOcr = isOcrSource(this.mimeType) && this.value === DOCUMENT_MIME;
    const names = new Intl.DisplayNames([t.locale], { type: 'language' });
    return html`
      <div part="base" class="base">
        <label part="label" for="kind">${c.label}</label>
        <select id="kind" part="select" ?disabled=${this.disabled || targets.length === 0} .value=${this.value} @change=${this.#onKind}>
          <option value="" ?selected=${this.value === ''}>${c.keep}</option>
          ${targets.map((kind) => html`<option value=${kind} ?selected=${this.value === kind}>${c.kinds[kind] ?? kind}</option>`)}
        </select>
        ${
          showOcr
            ? html`<label part="ocr-label" for="ocr">${c.ocrLanguage}</label>
              <select id="ocr" part="ocr-select" ?disabled=${this.disabled} @change=${this.#onOcr}>
                <option value="" ?selected=${this.ocrLanguage === ''}>—</option>
                ${this.ocrLanguages.map(
                  (code) =>
                    html`<option value=${code} lang=${code} ?selected=${this.ocrLanguage === code}>${names.of(code) ?? code}</option>`,
                )}
              </select>`
            : nothing
        }
        <span class="status" role="status">${this.loadState === 'loading' ? c.loading : this.loadState === 'failed' ? c.unavailable : ''}</span>
      </div>
    `;
  }

  #onKind = (event: Event): void => {
    event.stopPropagation();
    this.value = (event.target as HTMLSelectElement).value;
    this.#changed();
  };

  #onOcr = (event: Event): void => {
    event.stopPropagation();
    this.ocrLanguage = (event.target as HTMLSelectElement).value;
    this.#changed();
  };

  #changed(): void {
    this.#internals.setFormValue(this.value);
    // The inner select's `change` is not composed; re-fire one from the host, as a native control would.
    this.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
  }
}
