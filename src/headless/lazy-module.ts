/** A module the elements load on demand, once, and then use synchronously while rendering. */
export interface LazyModule<M> {
  /** The module if it is loaded, else `undefined`. */
  loaded: () => M | undefined;
  /** Loads it (once); a failed load is forgotten, so a later render tries again. */
  load: () => Promise<M>;
}

/** `importer` must call the literal `import('./x.ts')`, so that bundlers see the chunk. */
export function lazyModule<M>(importer: () => Promise<M>): LazyModule<M> {
  let loaded: M | undefined;
  let loading: Promise<M> | undefined;
  return {
    loaded: () => loaded,
    load: () =>
      (loading ??= importer().then(
        (m) => (loaded = m),
        (error: unknown) => {
          loading = undefined;
          throw error;
        },
      )),
  };
}
