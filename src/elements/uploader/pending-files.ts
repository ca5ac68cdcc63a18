import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { PickedFile } from '../events.ts';
import type { ImportFormats } from '../conversion-picker/import-formats.ts';
import type { StoreI18n, StoreI18nOverrides } from '../i18n/types.ts';
import { formatBytes } from '../internal/format.ts';

/**
 * `<store-uploader conversion="per-file">`'s files waiting for a conversion choice: loaded (`lazy-views.ts`)
 * when files first wait, so pages that convert all files or none never download it.
 */

/** Keeps an inner control's `change` inside: the uploader's own `change` means its value changed. */
const stop = (event: Event): void => event.stopPropagation();

/** Per-file mode: the files waiting for a choice, one `<store-conversion-picker>` each, then upload or clear. */
export function renderPending(
  t: StoreI18n,
  pending: readonly PickedFile[],
  options: {
    formats: ImportFormats | undefined;
    i18n: StoreI18nOverrides | undefined;
    colorScheme: string | undefined;
  },
  actions: { upload: () => void; clear: () => void },
): TemplateResult {
  return html`
    <fieldset part="pending">
      <legend>${t.uploader.perFileTitle}</legend>
      <ul>
        ${pending.map(
          (p, i) => html`<li>
            <span><bdi>${p.relativePath}</bdi> (<bdi>${formatBytes(p.file.size, t.locale)}</bdi>)</span>
            <store-conversion-picker data-index=${i} mime-type=${p.file.type} .importFormats=${options.formats ?? {}} .i18n=${options.i18n}
              color-scheme=${options.colorScheme ?? nothing} @change=${stop}></store-conversion-picker>
          </li>`,
        )}
      </ul>
      <div class="row">
        <button type="button" class="primary" @click=${actions.upload}>${t.uploader.uploadPending(pending.length)}</button>
        <button type="button" @click=${actions.clear}>${t.uploader.clearPending}</button>
      </div>
    </fieldset>
  `;
}
