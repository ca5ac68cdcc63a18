/**
 * `multipart/related` uploads (spec §4.2, supplement §2): the client's encoder and the service's streaming parser.
 * Exactly two parts: the file metadata as JSON, then the media bytes.
 */
import { MultipartError } from './multipart-error.ts';
import { MultipartReader, type MultipartEvent } from './multipart-reader.ts';
import { parseContentType } from './multipart-content-type.ts';
import { strictJsonText } from './json-text.ts';
import { concatBytes } from './multipart-text.ts';

export { MultipartError, type MultipartErrorCode } from './multipart-error.ts';
export { MultipartReader, type MultipartEvent, type MultipartReaderOptions } from './multipart-reader.ts';
export { parseContentType, multipartBoundary, type ContentType } from './multipart-content-type.ts';

export {
  METADATA_CONTENT_TYPE,
  encodeMultipartRelated,
  newBoundary,
  type EncodedMultipart,
} from './multipart-encode.ts';

/** A parsed multipart upload: metadata now, media as a stream. */
export interface MultipartRelatedUpload {
  /** The parsed metadata JSON (any JSON value: the service validates its shape). */
  readonly metadata: unknown;
  /** Headers of the metadata part (lower-case names). */
  readonly metadataHeaders: Readonly<Record<string, string>>;
  /** Headers of the media part (lower-case names). */
  readonly mediaHeaders: Readonly<Record<string, string>>;
  /** The media part's `Content-Type`, if it had one. */
  readonly mediaType: string | undefined;
  /**
   * The media bytes as they arrive; iterate once. It completes only after the closing delimiter has been read, and
   * throws {@link MultipartError} if a third part follows or the body is cut off: commit the file only after it
   * completes.
   */
  readonly media: AsyncIterable<Uint8Array>;
}

/** Options of {@link parseMultipartRelated}. */
export interface ParseMultipartRelatedOptions {
  /** Cap on the metadata part, in bytes (default 1 MiB). */
  readonly maxMetadataBytes?: number;
}

/**
 * Streaming parser for a `multipart/related` upload body. Resolves once the metadata part is complete and the
 * media part has begun; the media bytes are then read on demand from `chunks`, never buffered whole.
 * @throws MultipartError (rejection) for a missing opening delimiter, a body with no or one part, a first part
 *   that is not `application/json` (with or without `charset`) or does not parse, or malformed part headers.
 */
export async function parseMultipartRelated(
  chunks: AsyncIterable<Uint8Array>,
  boundary: string,
  options: ParseMultipartRelatedOptions = {},
): Promise<MultipartRelatedUpload> {
  const maxMetadata = options.maxMetadataBytes ?? 1024 * 1024;
  const source = chunks[Symbol.asyncIterator]();
  const reader = new MultipartReader(boundary);
  const queue: MultipartEvent[] = [];
  let sourceDone = false;

  /** Next event, pulling chunks from the source as needed; `end` throws if the body is incomplete. */
  const next = async (): Promise<MultipartEvent | undefined> => {
    while (queue.length === 0) {
      if (sourceDone) return undefined;
      const r = await source.next();
      if (r.done) {
        sourceDone = true;
        queue.push(...reader.end());
      } else {
        queue.push(...reader.push(r.value));
      }
    }
    return queue.shift();
  };

  try {
    let event = await next();
    if (event?.type !== 'part') throw tooFew(0);
    const metadataHeaders = event.headers;
    const metaType = parseContentType(metadataHeaders['content-type']);
    if (metaType?.type !== 'application/json') {
      throw new MultipartError(
        'metadataNotJson',
        `The first part must be the metadata as application/json; its Content-Type is ${
          metadataHeaders['content-type'] ? `"${metadataHeaders['content-type']}"` : 'missing'
        }.`,
      );
    }
    const metaChunks: Uint8Array[] = [];
    let metaSize = 0;
    for (event = await next(); event?.type === 'data'; event = await next()) {
      metaSize += event.bytes.length;
      if (metaSize > maxMetadata) {
        throw new MultipartError('metadataTooLarge', `The metadata part exceeds ${maxMetadata} bytes.`);
      }
      metaChunks.push(event.bytes);
    }
    const metadata = parseMetadata(concatBytes(metaChunks));
    event = await next();
    if (event?.type !== 'part') throw tooFew(1);
    const mediaHeaders = event.headers;
    const mediaType = parseContentType(mediaHeaders['content-type']) ? mediaHeaders['content-type'] : undefined;

    const media = async function* (): AsyncGenerator<Uint8Array, void, undefined> {
      try {
        let e = await next();
        for (; e?.type === 'data'; e = await next()) yield e.bytes;
        // The media part ended: only the closing delimiter may follow.
        e = await next();
        if (e?.type === 'part') {
          throw new MultipartError(
            'tooManyParts',
            'The multipart body has more than two parts; expected exactly two: metadata JSON, then media.',
          );
        }
        while (!sourceDone) await next(); // read (and ignore) the epilogue so the request is fully consumed
      } finally {
        if (!sourceDone) await source.return?.();
      }
    };
    return { metadata, metadataHeaders, mediaHeaders, mediaType, media: { [Symbol.asyncIterator]: media } };
  } catch (err) {
    if (!sourceDone) await source.return?.();
    throw err;
  }
}

function tooFew(found: number): MultipartError {
  return new MultipartError(
    'tooFewParts',
    `The multipart body has ${found === 0 ? 'no parts' : 'only one part'}; expected exactly two: metadata JSON, then media.`,
  );
}

function parseMetadata(bytes: Uint8Array): unknown {
  const strict = strictJsonText(bytes);
  if ('problem' in strict)
    throw new MultipartError('metadataInvalidJson', `The metadata part is not valid JSON: ${strict.problem}`);
  try {
    return JSON.parse(strict.text);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new MultipartError('metadataInvalidJson', `The metadata part is not valid JSON: ${why}`);
  }
}
