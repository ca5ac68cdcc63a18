import { enLater } from './en-later.ts';
import { enUpFront } from './en-up-front.ts';
import { mergeI18n } from './merge.ts';
import type { StoreI18n } from './types.ts';

/**
 * English words of every element: the defaults every other language and override is merged over, and the start for
 * an app's own translation. The elements themselves load it in two halves (`en-up-front.ts`, `en-later.ts`).
 */
// Typed as both halves, the first argument fails to compile when together they miss a word of `StoreI18n`.
export const en: StoreI18n = mergeI18n(enUpFront as typeof enUpFront & typeof enLater, enLater);
