/** The contract every importer module fulfils. */
import type { NativeContent } from './native-content.ts';

/** What an importer gets besides the bytes. */
export interface ImportContext {
  /** Base source MIME type (lower-case, no parameters). */
  mimeType: string;
  /** `charset` parameter of the declared type, if any. */
  charset?: string;
  /** Tesseract language code OCR should use (already validated). */
  ocrLang: OcrLang;
  /** The BCP 47 code the caller gave, kept in the content for reference. */
  ocrLanguage?: string;
}

/** Tesseract language codes backed by installed language data. */
export type OcrLang = 'eng' | 'fra';

/** Turns the bytes of one source file into native content; throws `ConversionError` on bad input. */
export type Importer = (bytes: Uint8Array, ctx: ImportContext) => Promise<NativeContent>;
