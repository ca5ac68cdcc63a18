import { lazyModule } from '../internal/lazy-module.ts';

/** `share-step.ts` on demand: loaded once, the first time an element needs the share step. */
const shareStep = lazyModule(() => import('./share-step.ts'));
export const loadedShareStep = shareStep.loaded;
export const loadShareStep = shareStep.load;
