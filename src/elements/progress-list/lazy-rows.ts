import { lazyModule } from '../internal/lazy-module.ts';

/** `rows.ts` on demand: loaded once, when a progress list first has a row to show. */
const rows = lazyModule(() => import('./rows.ts'));
export const loadedRows = rows.loaded;
export const loadRows = rows.load;
