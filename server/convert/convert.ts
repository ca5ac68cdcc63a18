/** `convert`: checks type, size and OCR language, reads the source file, and runs the matching importer. */
import { readFile } from 'node:fs/promises';
import { isNativeDocumentKind } from 'store-upload-kit/protocol';
import type { NativeKind } from 'store-upload-kit/protocol';
import { ConversionError, corrupt } from './conversion-error.ts';
import { importerFor, maxImportSizes } from './formats.ts';
import { baseMime, charsetOf } from './mime-types.ts';
import type { NativeContent } from './native-content.ts';
import { ocrLangFor } from './ocr-language.ts';

/** The refusal of a pair of types no importer takes, naming both. */
export function unsupported(source: string, target: NativeKind): ConversionError {
  return new ConversionError('unsupported', `Conversion from ${source || '(no type)'} to ${target} is not supported.`);
}

/** The stored media to convert: where it is, what it claims to be, and how big it is. */
export interface ConvertInput {
  path: string;
  mimeType: string;
  size: number;
}

/** Conversion options from the request. */
export interface ConvertOptions {
  /** BCP 47 language for OCR of images and scanned PDFs (`ocrLanguage` query parameter). */
  ocrLanguage?: string;
}

/**
 * Converts a stored file to native content of kind `target`.
 * Throws `ConversionError`: `unsupported` (names both types), `tooLarge`, `badOcrLanguage`, `corrupt`, `ocrFailed`.
 * Library errors on bad input are wrapped; nothing escapes as an untyped error except I/O failures reading `path`.
 */
export async function convert(
  input: ConvertInput,
  target: NativeKind,
  opts: ConvertOptions = {},
): Promise<NativeContent> {
  const source = baseMime(input.mimeType);
  const kindName = isNativeDocumentKind(target) ? target : String(target);
  const load = importerFor(source, target);
  if (!load) throw unsupported(source, target);
  const limit = maxImportSizes[target];
  if (input.size > limit) {
    throw new ConversionError(
      'tooLarge',
      `The file is ${input.size} bytes; conversion to ${kindName} accepts at most ${limit} bytes.`,
    );
  }
  const ocrLang = ocrLangFor(opts.ocrLanguage);
  const bytes = new Uint8Array(await readFile(input.path));
  const importer = await load();
  const charset = charsetOf(input.mimeType);
  try {
    return await importer(bytes, {
      mimeType: source,
      ocrLang,
      ...(charset ? { charset } : {}),
      ...(opts.ocrLanguage ? { ocrLanguage: opts.ocrLanguage } : {}),
    });
  } catch (err) {
    // Importers wrap what their libraries throw; anything else on odd input still must not become a 500 or a crash.
    throw corrupt(`${source} file`, err);
  }
}
