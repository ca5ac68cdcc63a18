/** Why a multipart body (upload or batch envelope) was rejected. */
export type MultipartErrorCode =
  /** `Content-Type` is not the expected `multipart/*` type. */
  | 'wrongContentType'
  /** `Content-Type` has no usable `boundary` parameter. */
  | 'missingBoundary'
  /** The body never contains the opening `--boundary` line. */
  | 'missingOpeningDelimiter'
  /** A `--boundary` line followed by something other than `--`, white space or a line break. */
  | 'malformedDelimiter'
  /** A part's header block is not `Name: value` lines, or is too large. */
  | 'malformedPartHeaders'
  /** The body ended before the closing `--boundary--`. */
  | 'missingClosingDelimiter'
  /** Fewer parts than the format requires. */
  | 'tooFewParts'
  /** More parts than the format allows. */
  | 'tooManyParts'
  /** The metadata part of a `multipart/related` upload is not `application/json`. */
  | 'metadataNotJson'
  /** The metadata part is labelled JSON but does not parse. */
  | 'metadataInvalidJson'
  /** The metadata part exceeds the size limit. */
  | 'metadataTooLarge'
  /** A batch part is not a well-formed HTTP request or response. */
  | 'malformedHttpMessage';

/**
 * A rejected multipart body. `message` is the precise, English explanation the reference service puts in its 400
 * error body (like `FieldsError`); clients branch on `code`.
 */
export class MultipartError extends Error {
  /** Machine-readable reason. */
  readonly code: MultipartErrorCode;

  constructor(code: MultipartErrorCode, message: string) {
    super(message);
    this.name = 'MultipartError';
    this.code = code;
  }
}
