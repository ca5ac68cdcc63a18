import { en } from './en.ts';
import { fr } from './fr.ts';
import type { StoreI18n } from './types.ts';

/**
 * Built-in languages, by primary language subtag, for apps that want the word objects themselves (to start a
 * translation from, say). The elements do not use this table: they load non-English words on demand
 * (`languages.ts`), so importing it is what brings every language into a bundle. Apps add other languages by
 * passing a whole object as `i18n`.
 */
export const builtInLanguages: Readonly<Record<string, StoreI18n>> = { en, fr };
