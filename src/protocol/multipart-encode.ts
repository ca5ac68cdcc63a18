/**
 * The client's half of `multipart/related` uploads (spec §4.2): the encoder, apart from the service's parser so an
 * upload worker does not carry the parser.
 */
import { randomHex } from './random-hex.ts';

/** The metadata part's content type the encoder writes (spec §4.2). */
export const METADATA_CONTENT_TYPE = 'application/json; charset=UTF-8';

/** A body ready to send: `Content-Type` header value and the body as pieces in order; `M` is the media's type. */
export interface EncodedMultipart<M> {
  /** `multipart/related; boundary=<boundary>` */
  readonly contentType: string;
  readonly boundary: string;
  /** Body pieces in order; the media piece is passed through untouched (e.g. a `Blob`, never copied). */
  readonly body: (string | M)[];
}

/** A fresh boundary: 32 random hex digits behind a fixed prefix, so it never occurs in real payloads. */
export function newBoundary(prefix = 'store_'): string {
  return `${prefix}${randomHex(16)}`;
}

/**
 * Encodes a multipart upload body. `media` goes into the result as is, so the browser client can hand the pieces
 * to `new Blob(body)` without reading the file. Generic over the media's type (`Blob`, `Uint8Array`, `string`, …)
 * so the pieces type-check wherever they are sent.
 * @param metadata File metadata, serialised with `JSON.stringify`.
 * @param media The file content, passed through untouched.
 * @param mediaType MIME type of the media; `application/octet-stream` when empty.
 * @param boundary Override for tests; a fresh random one by default.
 */
export function encodeMultipartRelated<M>(
  metadata: unknown,
  media: M,
  mediaType: string,
  boundary: string = newBoundary(),
): EncodedMultipart<M> {
  const type = mediaType || 'application/octet-stream';
  if (/[\r\n]/.test(type)) throw new TypeError('mediaType must not contain line breaks');
  const head =
    `--${boundary}\r\nContent-Type: ${METADATA_CONTENT_TYPE}\r\n\r\n${JSON.stringify(metadata ?? {})}\r\n` +
    `--${boundary}\r\nContent-Type: ${type}\r\n\r\n`;
  return {
    contentType: `multipart/related; boundary=${boundary}`,
    boundary,
    body: [head, media, `\r\n--${boundary}--\r\n`],
  };
}
