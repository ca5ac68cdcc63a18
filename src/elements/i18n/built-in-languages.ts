/**
 * Tags of the built-in languages, English first, each as an app writes it in `lang` (`zh-TW` for Traditional
 * Chinese, `sr` for Serbian in Cyrillic and `sr-Latn` in Latin script). Nothing in the elements reads this list at
 * run time — an unused export costs a page nothing; `catalogue.ts`, loaded with the first language that is not
 * English, holds one loader per tag and is typed by it, so the two cannot drift apart.
 */
export const BUILT_IN_LANGUAGES = [
  'en', 'ar', 'bg', 'bn', 'ca', 'cs', 'da', 'de', 'el', 'es', 'et', 'eu', 'fa', 'fi', 'fil', 'fr', 'gl', 'he', 'hi', 'hr',
  'hu', 'id', 'it', 'ja', 'kk', 'ko', 'lt', 'lv', 'mr', 'ms', 'nb', 'nl', 'pl', 'pt', 'ro', 'ru', 'sk', 'sl', 'sr',
  'sr-Latn', 'sv', 'sw', 'ta', 'te', 'th', 'tr', 'uk', 'ur', 'vi', 'zh', 'zh-TW',
] as const;

/** One of `BUILT_IN_LANGUAGES`. */
export type BuiltInLanguageTag = (typeof BUILT_IN_LANGUAGES)[number];
