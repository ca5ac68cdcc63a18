/** `download-menu.ts` on demand: loaded once, the first time a list with `downloadFrom` shows a finished upload. */
type DownloadMenuModule = typeof import('./download-menu.ts');

let loaded: DownloadMenuModule | undefined;
let loading: Promise<DownloadMenuModule> | undefined;

/** The menu if it is loaded, else `undefined`. */
export function loadedDownloadMenu(): DownloadMenuModule | undefined {
  return loaded;
}

/** Loads the menu (once); a failed load is forgotten, so a later render tries again. */
export function loadDownloadMenu(): Promise<DownloadMenuModule> {
  loading ??= import('./download-menu.ts').then(
    (m) => (loaded = m),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
