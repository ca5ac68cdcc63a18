/**
 * Languages of the elements and how to extend them. English is built in; every other language loads on demand
 * (`builtInLanguage('ja')`), so importing this entry never brings every language into a bundle.
 */
export { en } from './en.ts';
export { builtInLanguage } from './languages.ts';
export { BUILT_IN_LANGUAGES, type BuiltInLanguageTag } from './built-in-languages.ts';
export { languageDirection } from './direction.ts';
export { mergeI18n } from './merge.ts';
export { resolveI18n } from './resolve.ts';
export { plural } from './plural.ts';
export type { StoreI18n, StoreI18nOverrides, DeepPartial, SummaryCounts } from './types.ts';
