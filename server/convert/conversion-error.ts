/** Why a conversion or export failed; the HTTP layer maps each code to a status (see `statusOf`). */
export type ConversionErrorCode =
  /** The source type cannot be converted to the requested native kind. → 400 */
  | 'unsupported'
  /** The bytes are not a valid file of the declared type. → 400 */
  | 'corrupt'
  /** The source is over `maxImportSizes` for the target kind. → 400 */
  | 'tooLarge'
  /** `ocrLanguage` is not a BCP 47 code OCR supports. → 400 */
  | 'badOcrLanguage'
  /** The native kind cannot be exported to the requested MIME type. → 400 */
  | 'unsupportedExport'
  /** OCR itself failed on a valid image (not the caller's fault). → 500 */
  | 'ocrFailed';

/** A conversion failure with a machine-readable `code` and a message that says what was wrong. */
export class ConversionError extends Error {
  override name = 'ConversionError';
  constructor(
    readonly code: ConversionErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** The HTTP status the service answers with for this error. */
  get status(): 400 | 500 {
    return this.code === 'ocrFailed' ? 500 : 400;
  }
}

/** Wraps whatever a parsing library threw as a `corrupt` error naming the file type. */
export function corrupt(what: string, cause: unknown): ConversionError {
  if (cause instanceof ConversionError) return cause;
  const detail = cause instanceof Error ? cause.message : String(cause);
  return new ConversionError('corrupt', `The file is not a valid ${what}: ${detail}`, { cause });
}
