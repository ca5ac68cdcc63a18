import { lazyModule } from '../lazy-module.ts';

/** `intake.ts` on demand: loaded once, at the first sign of intent on a dropzone or with the first files. */
const intake = lazyModule(() => import('./intake.ts'));
export const loadIntake = intake.load;
export const loadedIntake = intake.loaded;

/** Starts loading the intake ahead of the files (a sign of intent); a failed load is tried again when files come. */
export function preloadIntake(): void {
  intake.load().catch(() => undefined);
}
