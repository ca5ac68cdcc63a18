/**
 * What a `<store-progress-list>` needs once it has a row, in one chunk loaded then (`lazy-rows.ts`): a page whose
 * list stays empty never fetches the header (summary, total bar, bulk actions), the row template, the file-type and state icons, the row window of long lists,
 * arrow-key navigation, the rows' styles or Lit's keyed `repeat`.
 */
export { repeat } from 'lit/directives/repeat.js';
export { fileKind } from '../internal/file-kind.ts';
export { moveFocus } from './list-keyboard.ts';
export { renderHeader } from './render-header.ts';
export { renderRow } from './render-row.ts';
export { RowSlots } from './row-slots.ts';
export { RowWindow } from './row-window.ts';
export { rowStyles } from './row.styles.ts';
