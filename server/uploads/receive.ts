/** Simple (`uploadType=media`) and multipart uploads: bytes streamed to a blob, then the file committed. */
import { multipartBoundary, parseMultipartRelated } from '../../src/protocol/index.ts';
import type { Principal } from '../auth.ts';
import type { RouteContext } from '../context.ts';
import { badRequest } from '../errors.ts';
import { checkCreate, checkUpdate, type ReceivedMedia } from '../files/commit.ts';
import { type IncomingMetadata, parseMetadata } from '../files/metadata.ts';

/** MIME type of a `Content-Type` header without parameters; octet-stream when absent. */
export function mediaTypeOf(header: string | undefined): string {
  const type = (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return type === '' ? 'application/octet-stream' : type;
}

/** Streams the body of a simple upload into a blob. */
export async function receiveSimple(ctx: RouteContext): Promise<ReceivedMedia> {
  const contentType = mediaTypeOf(ctx.req.headers['content-type']);
  if (contentType.startsWith('multipart/')) {
    throw badRequest(`uploadType=media sends the raw bytes; a ${contentType} body needs uploadType=multipart.`);
  }
  const blob = await ctx.svc.blobs.write(ctx.req.body.stream());
  return { blob: blob.name, size: blob.size, md5: blob.md5, contentType };
}

/**
 * Parses a multipart/related upload: metadata first (checked with `check` before any media is stored), then the
 * media streamed into a blob. Bad envelopes throw `MultipartError` (→ 400 with the parser's message).
 */
export async function receiveMultipart(
  ctx: RouteContext,
  who: Principal,
  mode: { kind: 'create' } | { kind: 'update'; fileId: string },
): Promise<{ meta: IncomingMetadata; media: ReceivedMedia }> {
  const header = ctx.req.headers['content-type'];
  if (!header || mediaTypeOf(header) !== 'multipart/related') {
    throw badRequest(`uploadType=multipart needs Content-Type multipart/related; got ${header ? `"${header}"` : 'none'}.`);
  }
  const upload = await parseMultipartRelated(ctx.req.body.stream(), multipartBoundary(header, 'related'), {
    maxMetadataBytes: ctx.svc.config.maxJsonBytes,
  });
  const meta = parseMetadata(upload.metadata, mode.kind);
  if (mode.kind === 'create') checkCreate(ctx.svc, who, meta, true);
  else checkUpdate(ctx.svc, who, mode.fileId, meta, ctx.req.query, true);
  const contentType = upload.mediaType ? mediaTypeOf(upload.mediaType) : (meta.mimeType ?? 'application/octet-stream');
  const blob = await ctx.svc.blobs.write(upload.media);
  return { meta, media: { blob: blob.name, size: blob.size, md5: blob.md5, contentType } };
}
