/** `share-step.ts` on demand: loaded once, the first time an element needs the share step. */
type ShareStepModule = typeof import('./share-step.ts');

let loaded: ShareStepModule | undefined;
let loading: Promise<ShareStepModule> | undefined;

/** The share step if it is loaded, else `undefined`. */
export function loadedShareStep(): ShareStepModule | undefined {
  return loaded;
}

/** Loads the share step (once); a failed load is forgotten, so a later render tries again. */
export function loadShareStep(): Promise<ShareStepModule> {
  loading ??= import('./share-step.ts').then(
    (m) => (loaded = m),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
