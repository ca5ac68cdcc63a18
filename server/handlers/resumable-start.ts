/** Starting a resumable session (spec §4.3, supplement §1). */
import { H_SVC_UPLOAD_ID, sessionPath } from 'store-upload-kit/protocol';
import type { RouteContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { checkConversion, checkCreate, checkMediaType, checkUpdate, conversionTarget } from './file-commit.ts';
import { parseMetadata } from './incoming-metadata.ts';
import type { ApiResponse } from '../api-request.ts';
import { newUploadId } from '../store/ids.ts';
import { checkedMediaType } from './receive-media.ts';

/** Handles `POST /upload/.../files?uploadType=resumable` (create) or `PUT|PATCH …/files/<id>` (update). */
export async function startResumable(ctx: RouteContext, fileId: string | undefined): Promise<ApiResponse> {
  const who = ctx.user();
  const mode = fileId === undefined ? 'create' : 'update';
  const meta = parseMetadata(await ctx.readJson(), mode);
  const declaredText = ctx.req.headers['x-upload-content-length'];
  let declaredLength: number | undefined;
  if (declaredText !== undefined) {
    declaredLength = Number(declaredText);
    if (!/^\d{1,16}$/.test(declaredText.trim()) || !Number.isSafeInteger(declaredLength)) {
      throw new ApiError(400, 'badRequest', `X-Upload-Content-Length must be a byte count; got "${declaredText}".`, {
        where: { location: 'X-Upload-Content-Length', locationType: 'header' },
      });
    }
  }
  const row = fileId === undefined ? undefined : await checkUpdate(ctx.svc, who, fileId, meta, ctx.req.query, true);
  if (fileId === undefined) await checkCreate(ctx.svc, who, meta, true);
  const uploadHeader = ctx.req.headers['x-upload-content-type'];
  const contentType = uploadHeader
    ? checkedMediaType(uploadHeader, 'X-Upload-Content-Type')
    : (meta.mimeType ?? 'application/octet-stream');
  // Refused now rather than after the client has sent every byte.
  if (uploadHeader) {
    const target = conversionTarget(meta, row);
    checkMediaType(contentType, target);
    checkConversion(ctx.svc, contentType, target, meta, ctx.req.query);
  }
  // A declared size that cannot fit is refused before any byte is sent; the commit checks again with what arrived.
  if (declaredLength !== undefined) await ctx.svc.quota.check(row?.owner ?? who.email, declaredLength, row?.size ?? 0);
  const id = newUploadId();
  await ctx.svc.resumable.start({
    id,
    user: who.email,
    permissionId: who.permissionId,
    client: who.client,
    targetFileId: fileId,
    metadata: meta as Record<string, unknown>,
    query: ctx.req.query.toString(),
    contentType,
    declaredLength,
  });
  return {
    status: 200,
    headers: { Location: `${ctx.req.baseUrl}${sessionPath(id, fileId)}`, [H_SVC_UPLOAD_ID]: id, 'Content-Length': '0' },
  };
}
