import { withEnglishLater } from '../i18n/languages.ts';
import { lazyModule } from '../../headless/lazy-module.ts';

/** `rows.ts` on demand: loaded once, when a progress list first has a row to show, and rendered a task later. */
const rows = lazyModule(() => withEnglishLater(import('./rows.ts')).then((m) => m.warmed.then(() => m)));
export const loadedRows = rows.loaded;
export const loadRows = rows.load;
