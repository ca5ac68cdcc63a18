import { withEnglishLater } from '../i18n/languages.ts';
import { lazyModule } from '../internal/lazy-module.ts';

/** `rows.ts` on demand: loaded once, when a progress list first has a row to show. */
const rows = lazyModule(() => withEnglishLater(import('./rows.ts')));
export const loadedRows = rows.loaded;
export const loadRows = rows.load;
