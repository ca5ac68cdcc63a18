import { withEnglishLater } from '../i18n/languages.ts';
import { lazyModule } from '../../headless/lazy-module.ts';

/** `share-step.ts` on demand: loaded once, the first time an element needs the share step. */
export const shareStep = lazyModule(() => withEnglishLater(import('./share-step.ts')));

/** `pending-files.ts` on demand: loaded once, when files first wait for a conversion choice (`conversion="per-file"`). */
export const pendingFiles = lazyModule(() => import('./pending-files.ts'));

/** `interrupted-view.ts` on demand: loaded once, when an earlier page life left uploads to list. */
export const interruptedView = lazyModule(() => withEnglishLater(import('./interrupted-view.ts')));
