/** The upload paths `/upload/store/v3/files[/<id>]`: simple, multipart, resumable start, and session URIs. */
import { FILE_SCHEMA, UPLOAD_FILES_PATH } from 'store-upload-kit/protocol';
import type { RouteContext } from '../context.ts';
import { badParameter, badRequest } from '../errors.ts';
import { createFile, updateFile } from './file-commit.ts';
import type { ApiRequest, ApiResponse } from '../api-request.ts';
import type { Router } from '../router.ts';
import type { Service } from '../service-types.ts';
import { receiveMultipart, receiveSimple } from './receive-media.ts';
import { startResumable } from './resumable-start.ts';
import { cancelSession, putSession } from './resumable-put.ts';
import { checkCreate, checkUpdate, conversionTarget } from './file-commit.ts';

function uploadType(ctx: RouteContext): 'media' | 'multipart' | 'resumable' {
  if (ctx.req.inBatch) throw badRequest('Media upload is not allowed in a batch request.');
  const t = ctx.req.query.get('uploadType');
  if (t === 'media' || t === 'multipart' || t === 'resumable') return t;
  if (t === null)
    throw badParameter(
      'uploadType',
      'The uploadType parameter is required on the upload path: media, multipart or resumable.',
    );
  throw badParameter('uploadType', `Invalid value '${t}' for uploadType: must be media, multipart or resumable.`);
}

/** Create (POST) or update (PUT/PATCH with a file id) with media. */
async function upload(ctx: RouteContext, fileId: string | undefined): Promise<ApiResponse> {
  const type = uploadType(ctx);
  if (ctx.req.query.has('upload_id'))
    throw badRequest('A session URI (upload_id) takes PUT for bytes or DELETE to cancel.');
  if (type === 'resumable') return startResumable(ctx, fileId);
  const who = ctx.user();
  if (type === 'media') {
    const existing =
      fileId === undefined ? undefined : await checkUpdate(ctx.svc, who, fileId, {}, ctx.req.query, true);
    if (fileId === undefined) await checkCreate(ctx.svc, who, {}, true);
    const media = await receiveSimple(ctx, conversionTarget({}, existing));
    const row =
      fileId === undefined
        ? await createFile(ctx.svc, who, {}, media, ctx.req.query)
        : await updateFile(ctx.svc, who, fileId, {}, media, ctx.req.query);
    return ctx.json(200, await ctx.svc.files.resource(row, who), FILE_SCHEMA);
  }
  const { meta, media } = await receiveMultipart(
    ctx,
    who,
    fileId === undefined ? { kind: 'create' } : { kind: 'update', fileId },
  );
  const row =
    fileId === undefined
      ? await createFile(ctx.svc, who, meta, media, ctx.req.query)
      : await updateFile(ctx.svc, who, fileId, meta, media, ctx.req.query);
  return ctx.json(200, await ctx.svc.files.resource(row, who), FILE_SCHEMA);
}

function sessionId(ctx: RouteContext): string | undefined {
  const id = ctx.req.query.get('upload_id');
  return id === null || id === '' ? undefined : id;
}

/** PUT on the upload path: session bytes when `upload_id` is present, else an update (file id required). */
async function put(ctx: RouteContext, fileId: string | undefined): Promise<ApiResponse> {
  const id = sessionId(ctx);
  if (id !== undefined) return putSession(ctx, id, fileId);
  if (fileId === undefined)
    throw badParameter(
      'upload_id',
      'PUT on the upload collection needs a session URI (upload_id); create files with POST.',
    );
  return upload(ctx, fileId);
}

async function cancel(ctx: RouteContext, fileId: string | undefined): Promise<ApiResponse> {
  const id = sessionId(ctx);
  if (id === undefined)
    throw badParameter('upload_id', 'DELETE on the upload path cancels a session and needs upload_id.');
  return cancelSession(ctx, id, fileId);
}

/** Registers the upload routes. */
export function registerUploadRoutes(router: Router, _svc: Service): void {
  // Only requests naming a session are public (session URIs are capabilities); every other upload request is
  // authenticated before its uploadType, upload_id or fields is looked at. `fields` is checked up front so a bad
  // selection never follows stored bytes or a committed file (a session keeps its start's selection).
  const namesSession = (req: ApiRequest) => req.query.has('upload_id') && req.query.get('upload_id') !== '';
  const open = { public: namesSession, schema: FILE_SCHEMA };
  router.add('POST', UPLOAD_FILES_PATH, (ctx) => upload(ctx, undefined), open);
  router.add('PUT', UPLOAD_FILES_PATH, (ctx) => put(ctx, undefined), open);
  router.add('DELETE', UPLOAD_FILES_PATH, (ctx) => cancel(ctx, undefined), { public: namesSession });
  const one = `${UPLOAD_FILES_PATH}/:fileId`;
  router.add('PUT', one, (ctx) => put(ctx, ctx.params.fileId), open);
  router.add('PATCH', one, (ctx) => upload(ctx, ctx.params.fileId), open);
  router.add('DELETE', one, (ctx) => cancel(ctx, ctx.params.fileId), { public: namesSession });
}
