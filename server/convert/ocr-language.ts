/** Maps the `ocrLanguage` query parameter (BCP 47) to the tesseract language whose data is installed. */
import { ConversionError } from './conversion-error.ts';
import type { OcrLang } from './importer.ts';

const BY_LANGUAGE: Readonly<Record<string, OcrLang>> = { en: 'eng', fr: 'fra' };

/** BCP 47 primary languages OCR has its own data for (others are read with English data). */
export const OCR_LANGUAGES: readonly string[] = Object.keys(BY_LANGUAGE);

/**
 * The tesseract code for a BCP 47 tag (`en`, `en-US`, `fr-FR` …); English when absent. `ocrLanguage` is a hint that
 * "improves OCR quality" (spec §4.8): a well-formed tag of a language without installed data is read with English
 * data rather than refused, so an upload a page offered in its user's language (the conversion picker lists a dozen)
 * is converted. A malformed tag → `badOcrLanguage`.
 */
export function ocrLangFor(bcp47: string | undefined): OcrLang {
  if (bcp47 === undefined || bcp47 === '') return 'eng';
  let language: string;
  try {
    language = new Intl.Locale(bcp47).language;
  } catch {
    throw new ConversionError('badOcrLanguage', `Invalid ocrLanguage "${bcp47}": not a BCP 47 language tag.`);
  }
  return BY_LANGUAGE[language] ?? 'eng';
}
