/**
 * What a `<store-progress-list>` needs once it has a row, in one chunk loaded then (`lazy-rows.ts`): a page whose
 * list stays empty never fetches the header (summary, total bar, bulk actions), the row template, the file-type and state icons, the row window of long lists,
 * arrow-key navigation, the live region's announcer, the rows' styles or Lit's keyed `repeat`.
 */
import { formatBytes } from '../internal/format.ts';

export { Announcer } from '../internal/announcer.ts';
export { repeat } from 'lit/directives/repeat.js';
export { fileKind } from '../internal/file-kind.ts';
export { moveFocus } from './list-keyboard.ts';
export { renderHeader } from './render-header.ts';
export { renderRow } from './render-row.ts';
export { RowSlots } from './row-slots.ts';
export { RowWindow } from './row-window.ts';
export { rowStyles } from './row.styles.ts';

/**
 * Settles in a task after this chunk ran, which paid what a page pays once: ICU's unit data (the first `Intl` unit
 * format, about 30 ms here). The list's first render with rows then comes in a task of its own: the two together were
 * one task of over 50 ms of CPU on this 2-core machine beside 10,000 uploads.
 */
export const warmed = new Promise<void>((resolve) => {
  formatBytes(0, 'en');
  setTimeout(resolve);
});
