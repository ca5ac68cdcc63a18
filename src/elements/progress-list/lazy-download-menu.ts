import { withEnglishLater } from '../i18n/languages.ts';
import { lazyModule } from '../../headless/lazy-module.ts';

/** `download-menu.ts` on demand: loaded once, the first time a list with `downloadFrom` shows a finished upload. */
const downloadMenu = lazyModule(() => withEnglishLater(import('./download-menu.ts')));
export const loadedDownloadMenu = downloadMenu.loaded;
export const loadDownloadMenu = downloadMenu.load;
