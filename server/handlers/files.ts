/** Metadata endpoints of files: create, get (+ download), update, delete, list, generateIds. */
import {
  FILE_LIST_SCHEMA,
  FILE_SCHEMA,
  FILES_PATH,
  GENERATE_IDS_PATH,
  GENERATED_IDS_SCHEMA,
  KIND,
  UPLOAD_FILES_PATH,
} from 'store-upload-kit/protocol';
import { isJsonContentType, type RouteContext } from '../context.ts';
import { badParameter } from '../errors.ts';
import { fileFor } from '../access.ts';
import { createFile, updateFile, visibleFile, writableFile } from './file-commit.ts';
import { downloadResponse } from './download.ts';
import { parseMetadata } from './incoming-metadata.ts';
import type { Handler, Router } from '../router.ts';
import type { Service } from '../service-types.ts';
import { parseFileQuery, QueryError } from '../store/query.ts';

/** Parses an integer query parameter within bounds, or throws 400 naming it. */
function intParam(query: URLSearchParams, name: string, min: number, max: number, fallback: number): number {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw badParameter(name, `Invalid value '${raw}' for ${name}: must be an integer from ${min} to ${max}.`);
  }
  return n;
}

/** A media upload sent to the metadata path: say where it belongs instead of only "not JSON". */
function checkNotMedia(ctx: RouteContext): void {
  const type = ctx.req.query.get('uploadType');
  if (type !== null && !isJsonContentType(ctx.req.headers['content-type'])) {
    throw badParameter(
      'uploadType',
      `uploadType=${type} uploads media to ${UPLOAD_FILES_PATH}; ${FILES_PATH} takes JSON metadata only.`,
    );
  }
}

const create: Handler = async (ctx) => {
  const who = ctx.user();
  checkNotMedia(ctx);
  const meta = parseMetadata(await ctx.readJson(), 'create');
  const row = await createFile(ctx.svc, who, meta, undefined, ctx.req.query);
  return ctx.json(200, await ctx.svc.files.resource(row, who), FILE_SCHEMA);
};

const get: Handler = async (ctx) => {
  const who = ctx.user();
  const row = await visibleFile(ctx.svc, ctx.params.fileId, who);
  const alt = ctx.req.query.get('alt') ?? 'json';
  if (alt === 'media') return downloadResponse(ctx.svc, row, ctx.req.headers);
  if (alt !== 'json') throw badParameter('alt', `Invalid value '${alt}' for alt: must be json or media.`);
  return ctx.json(200, await ctx.svc.files.resource(row, who), FILE_SCHEMA);
};

const update: Handler = async (ctx) => {
  const who = ctx.user();
  const fileId = ctx.params.fileId;
  await writableFile(ctx.svc, fileId, who);
  checkNotMedia(ctx);
  const meta = parseMetadata(await ctx.readJson(), 'update');
  const row = await updateFile(ctx.svc, who, fileId, meta, undefined, ctx.req.query);
  return ctx.json(200, await ctx.svc.files.resource(row, who), FILE_SCHEMA);
};

const remove: Handler = async (ctx) => {
  const who = ctx.user();
  const fileId = ctx.params.fileId;
  // Deleting for good is the owner's right only (a writer can trash); the store checks it again as it commits.
  await fileFor(ctx.svc.files, fileId, who, 'delete');
  await ctx.svc.files.delete(fileId, who);
  return { status: 204, headers: {} };
};

const list: Handler = async (ctx) => {
  const who = ctx.user();
  const q = ctx.req.query;
  // `maxResults` is the spec's name for it (§4.9, "where pagination parameters exist"); `pageSize` wins when both come.
  const sizeName = q.get('pageSize') === null && q.get('maxResults') !== null ? 'maxResults' : 'pageSize';
  const pageSize = intParam(q, sizeName, 1, 1000, 100);
  let after = 0;
  const token = q.get('pageToken');
  if (token !== null && token !== '') {
    const m = /^p(\d{1,15})$/.exec(Buffer.from(token, 'base64url').toString('latin1'));
    if (!m) throw badParameter('pageToken', `Invalid pageToken '${token}'.`);
    after = Number(m[1]);
  }
  let query;
  try {
    query = parseFileQuery(q.get('q'));
  } catch (e) {
    if (e instanceof QueryError) throw badParameter('q', e.message);
    throw e;
  }
  const page = await ctx.svc.files.list(who, query, pageSize, after);
  const body: Record<string, unknown> = { kind: KIND.fileList, incompleteSearch: false };
  if (page.nextAfter !== undefined)
    body.nextPageToken = Buffer.from(`p${page.nextAfter}`, 'latin1').toString('base64url');
  body.files = await Promise.all(page.files.map((f) => ctx.svc.files.resource(f, who)));
  return ctx.json(200, body, FILE_LIST_SCHEMA);
};

const generateIds: Handler = async (ctx) => {
  const who = ctx.user();
  const q = ctx.req.query;
  const count = intParam(q, 'count', 1, 1000, 10);
  const space = q.get('space') ?? 'drive';
  if (space !== 'drive') throw badParameter('space', `Invalid value '${space}' for space: must be drive.`);
  const type = q.get('type') ?? 'files';
  if (type !== 'files' && type !== 'shortcuts')
    throw badParameter('type', `Invalid value '${type}' for type: must be files or shortcuts.`);
  const ids = await ctx.svc.files.generateIds(who.email, count);
  return ctx.json(200, { kind: KIND.generatedIds, space, ids }, GENERATED_IDS_SCHEMA);
};

/** Registers the file metadata routes. */
export function registerFileRoutes(router: Router, _svc: Service): void {
  const file = { schema: FILE_SCHEMA };
  router.add('POST', FILES_PATH, create, file);
  router.add('GET', FILES_PATH, list, { schema: FILE_LIST_SCHEMA });
  router.add('GET', GENERATE_IDS_PATH, generateIds, { schema: GENERATED_IDS_SCHEMA });
  router.add('GET', `${FILES_PATH}/:fileId`, get, file);
  router.add('PATCH', `${FILES_PATH}/:fileId`, update, file);
  router.add('PUT', `${FILES_PATH}/:fileId`, update, file);
  router.add('DELETE', `${FILES_PATH}/:fileId`, remove);
}
