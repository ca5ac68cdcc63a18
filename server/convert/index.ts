/**
 * Conversion on import and export of native files for the reference service (supplement §5).
 * Tables for the about resource, `convert` for uploads with a native `mimeType`, `exportNative` for `…/export`.
 */
export { convert } from './convert.ts';
export type { ConvertInput, ConvertOptions } from './convert.ts';
export { exportNative } from './export-native.ts';
export type { ExportResult } from './export-native.ts';
export { ConversionError } from './conversion-error.ts';
export type { ConversionErrorCode } from './conversion-error.ts';
export { importFormats, exportFormats, maxImportSizes, maxUploadSize } from './formats.ts';
export { OCR_LANGUAGES, ocrLangFor } from './ocr-language.ts';
export { DEFAULT_OCR_IDLE_MS, setOcrCacheDir, setOcrIdleMs, terminateOcr } from './ocr.ts';
export type * from './native-content.ts';
