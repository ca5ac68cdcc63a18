/** Maps the `ocrLanguage` query parameter (BCP 47) to the tesseract language whose data is installed. */
import { ConversionError } from './conversion-error.ts';
import type { OcrLang } from './importer.ts';

const BY_LANGUAGE: Readonly<Record<string, OcrLang>> = { en: 'eng', fr: 'fra' };

/** BCP 47 primary languages OCR supports. */
export const OCR_LANGUAGES: readonly string[] = Object.keys(BY_LANGUAGE);

/**
 * The tesseract code for a BCP 47 tag (`en`, `en-US`, `fr-FR` …); English when absent.
 * A malformed tag or a language without installed data → `badOcrLanguage`.
 */
export function ocrLangFor(bcp47: string | undefined): OcrLang {
  if (bcp47 === undefined || bcp47 === '') return 'eng';
  let language: string;
  try {
    language = new Intl.Locale(bcp47).language;
  } catch {
    throw new ConversionError('badOcrLanguage', `Invalid ocrLanguage "${bcp47}": not a BCP 47 language tag.`);
  }
  const lang = BY_LANGUAGE[language];
  if (!lang) {
    throw new ConversionError(
      'badOcrLanguage',
      `Unsupported ocrLanguage "${bcp47}": OCR supports ${OCR_LANGUAGES.join(', ')}.`,
    );
  }
  return lang;
}
