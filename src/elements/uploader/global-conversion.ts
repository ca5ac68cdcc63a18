import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { DEFAULT_OCR_LANGUAGES } from '../conversion-picker/store-conversion-picker.ts';
import type { StoreI18n } from '../i18n/types.ts';

/** The global switch: convert every file to a native format where possible, with the OCR language for images. */
export function renderGlobalConversion(
  t: StoreI18n,
  state: { convertAll: boolean; ocrLanguage: string },
  set: (change: { convertAll?: boolean; ocrLanguage?: string }) => void,
): TemplateResult {
  const names = new Intl.DisplayNames([t.locale], { type: 'language' });
  return html`
    <div part="conversion" class="row">
      <label><input type="checkbox" .checked=${state.convertAll} @change=${(e: Event) => set({ convertAll: (e.target as HTMLInputElement).checked })} />
        ${t.uploader.convertAll}</label>
      ${
        state.convertAll
          ? html`<label for="ocr">${t.conversion.ocrLanguage}</label>
            <select id="ocr" @change=${(e: Event) => set({ ocrLanguage: (e.target as HTMLSelectElement).value })}>
              <option value="">—</option>
              ${DEFAULT_OCR_LANGUAGES.map((code) => html`<option value=${code} lang=${code} ?selected=${code === state.ocrLanguage}>${names.of(code) ?? code}</option>`)}
            </select>`
          : nothing
      }
    </div>
  `;
}
