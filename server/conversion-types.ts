/**
 * The seam between uploads and conversion (spec §4.8, supplement §5). An upload whose metadata `mimeType` is a
 * native kind stores its media as content and calls `svc.convert` (wired by `createService` to
 * `convert/upload-hook.ts`); a service without it answers 400 "conversion not available".
 */

/** What a conversion gets. */
export interface ConversionInput {
  /** Path of the uploaded media on disk (complete; read it, do not move it). */
  readonly sourcePath: string;
  /** MIME type of the media as uploaded (`application/octet-stream` if none was given). */
  readonly sourceMimeType: string;
  /** The requested native kind (`application/vnd.svc-apps.document` …). */
  readonly targetMimeType: string;
  readonly size: number;
  /** `ocrLanguage` query parameter (BCP 47), if given. */
  readonly ocrLanguage: string | undefined;
  /** Original file name from the metadata, if any (helps pick a parser). */
  readonly name: string | undefined;
}

/** The converted native content, stored as the file's content (served by `export`). */
export interface ConversionOutput {
  readonly content: Uint8Array;
}

/**
 * Converts media to a native kind. Throw `ApiError` (server/errors.ts) with 400 for an unsupported pair, corrupt
 * input or too large a file; the message is sent to the client as is.
 */
export type ConvertUpload = ((input: ConversionInput) => Promise<ConversionOutput>) & {
  /**
   * Refuses (throws the `ApiError` the conversion would) a request it already knows it will refuse — a pair of types
   * it cannot convert, a malformed `ocrLanguage` — before a byte of the media is sent: a resumable start that names
   * its type in `X-Upload-Content-Type`, a multipart upload whose media part names one.
   */
  readonly check?: (input: Omit<ConversionInput, 'sourcePath' | 'size'>) => void;
};
