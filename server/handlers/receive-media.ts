/** Simple (`uploadType=media`) and multipart uploads: bytes streamed into stored content, then the file committed. */
import { bareMediaType, isMediaType, multipartBoundary, parseMultipartRelated } from 'store-upload-kit/protocol';
import type { Principal } from '../access.ts';
import type { RouteContext } from '../context.ts';
import { ApiError, badRequest } from '../errors.ts';
import {
  checkConversion,
  checkCreate,
  checkMediaType,
  checkUpdate,
  conversionTarget,
  type ReceivedMedia,
} from './file-commit.ts';
import { type IncomingMetadata, parseMetadata } from './incoming-metadata.ts';

/** MIME type of a `Content-Type` header without parameters; octet-stream when absent. */
function mediaTypeOf(header: string | undefined): string {
  const type = (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return type === '' ? 'application/octet-stream' : type;
}

/**
 * The MIME type a header names, or a 400 naming the header when it is not `type/subtype`: a garbled type would
 * otherwise become the file's `mimeType` and be served back as its `Content-Type`.
 */
export function checkedMediaType(header: string | undefined, name: string): string {
  const type = mediaTypeOf(header);
  if (!isMediaType(type)) {
    throw new ApiError(400, 'badRequest', `The ${name} header "${header}" is not a MIME type (type/subtype).`, {
      where: { location: name, locationType: 'header' },
    });
  }
  return type;
}

/** Streams the body of a simple upload into stored content. `Content-Type` is required (spec §4.1). */
export async function receiveSimple(ctx: RouteContext, target: string | undefined): Promise<ReceivedMedia> {
  const header = ctx.req.headers['content-type'];
  if (header === undefined || bareMediaType(header) === '') {
    throw new ApiError(
      400,
      'required',
      'uploadType=media needs a Content-Type header with the MIME type of the bytes.',
      {
        where: { location: 'Content-Type', locationType: 'header' },
      },
    );
  }
  const contentType = checkedMediaType(header, 'Content-Type');
  checkMediaType(contentType, target);
  if (contentType.startsWith('multipart/')) {
    throw badRequest(`uploadType=media sends the raw bytes; a ${contentType} body needs uploadType=multipart.`);
  }
  const stored = await ctx.svc.content.write(ctx.req.body.stream());
  return { contentKey: stored.key, size: stored.size, md5: stored.md5, contentType };
}

/**
 * Parses a multipart/related upload: metadata first (checked with `check` before any media is stored), then the
 * media streamed into stored content. Bad envelopes throw `MultipartError` (→ 400 with the parser's message).
 */
export async function receiveMultipart(
  ctx: RouteContext,
  who: Principal,
  mode: { kind: 'create' } | { kind: 'update'; fileId: string },
): Promise<{ meta: IncomingMetadata; media: ReceivedMedia }> {
  const header = ctx.req.headers['content-type'];
  if (!header || mediaTypeOf(header) !== 'multipart/related') {
    throw badRequest(
      `uploadType=multipart needs Content-Type multipart/related; got ${header ? `"${header}"` : 'none'}.`,
    );
  }
  const upload = await parseMultipartRelated(ctx.req.body.stream(), multipartBoundary(header, 'related'), {
    maxMetadataBytes: ctx.svc.config.maxJsonBytes,
  });
  const meta = parseMetadata(upload.metadata, mode.kind);
  const existing =
    mode.kind === 'create' ? undefined : await checkUpdate(ctx.svc, who, mode.fileId, meta, ctx.req.query, true);
  if (mode.kind === 'create') await checkCreate(ctx.svc, who, meta, true);
  // The media part's type is checked as a simple upload's header is: one that is no MIME type is refused, naming
  // it, instead of being read as absent (the metadata's type would stand for it, and a converting upload would be
  // told its target cannot be converted to itself). A part without one takes the metadata's.
  const partType = upload.mediaHeaders['content-type'];
  const named = partType !== undefined && partType.trim() !== '';
  const contentType = named
    ? checkedMediaType(partType, "media part's Content-Type")
    : (meta.mimeType ?? 'application/octet-stream');
  // Before the media is stored: a native media type with nothing to convert it is refused, as is a conversion the
  // service knows it would refuse.
  if (named) {
    const target = conversionTarget(meta, existing);
    checkMediaType(contentType, target);
    checkConversion(ctx.svc, contentType, target, meta, ctx.req.query);
  }
  const stored = await ctx.svc.content.write(upload.media);
  return { meta, media: { contentKey: stored.key, size: stored.size, md5: stored.md5, contentType } };
}
