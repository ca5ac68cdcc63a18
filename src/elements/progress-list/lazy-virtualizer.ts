/**
 * `@lit-labs/virtualizer` on demand: it weighs about as much as the rest of the progress list, and only long
 * lists need it, so it is a chunk of its own that loads the first time a list grows past `VIRTUALIZE_FROM` rows.
 */
type VirtualizerModule = typeof import('@lit-labs/virtualizer/virtualize.js');

/**
 * Lists with more rows than this are virtualized. Up to here plain rows are cheap to render and update (a few
 * hundred small DOM nodes), and the page never downloads the virtualizer.
 */
export const VIRTUALIZE_FROM = 200;

let loaded: VirtualizerModule | undefined;
let loading: Promise<VirtualizerModule> | undefined;

/** The virtualizer module (`virtualize`, `virtualizerRef`) if it is loaded, else `undefined`. */
export function loadedVirtualizer(): VirtualizerModule | undefined {
  return loaded;
}

/** Loads the virtualizer (once); a failed load is forgotten, so a later call tries again. */
export function loadVirtualizer(): Promise<VirtualizerModule> {
  loading ??= import('@lit-labs/virtualizer/virtualize.js').then(
    (m) => (loaded = m),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
