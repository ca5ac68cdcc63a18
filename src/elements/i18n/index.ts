/** Languages of the elements and how to extend them. */
export { en } from './en.ts';
export { fr } from './fr.ts';
export { builtInLanguages } from './built-in.ts';
export { mergeI18n, resolveI18n } from './resolve.ts';
export type { StoreI18n, StoreI18nOverrides, DeepPartial, SummaryCounts } from './types.ts';
