/**
 * Push and change-log endpoints (spec §4.12, §4.13, supplement §8): watch a file, watch the change log, stop a
 * channel, the start page token and the change list.
 */
import {
  CHANGE_LIST_SCHEMA,
  CHANGES_PATH,
  CHANGES_WATCH_PATH,
  CHANNEL_SCHEMA,
  CHANNELS_STOP_PATH,
  FILES_PATH,
  KIND,
  START_PAGE_TOKEN_PATH,
  START_PAGE_TOKEN_SCHEMA,
  filePath,
} from 'store-upload-kit/protocol';
import { rfc3339 } from '../clock.ts';
import type { RouteContext } from '../context.ts';
import { ApiError, badParameter } from '../errors.ts';
import { fileFor } from '../access.ts';
import type { Router } from '../router.ts';
import type { Service } from '../service-types.ts';
import type { Channel } from '../push/channel-store.ts';
import { opaqueResourceId, type PushService } from '../push/push-service.ts';
import { MAX_CHANGES_TTL_S, MAX_FILE_TTL_S, parseWatchRequest, type WatchRequest } from '../push/watch-request.ts';

/** Registers the push routes on the service's router (push itself is wired by `createService`). */
export function registerPushRoutes(router: Router, svc: Service): void {
  addPushRoutes(router, svc.push);
}

/** Adds the push routes for an existing {@link PushService}. */
function addPushRoutes(router: Router, push: PushService): void {
  // `schema`: dispatch checks `fields` before the handler runs, so a bad selection opens no channel (a retry with
  // the selection mended would find its id taken).
  const channel = { schema: CHANNEL_SCHEMA };
  router.add('POST', `${FILES_PATH}/:fileId/watch`, (ctx) => watchFile(ctx, push), channel);
  router.add('POST', CHANGES_WATCH_PATH, (ctx) => watchChanges(ctx, push), channel);
  router.add('POST', CHANNELS_STOP_PATH, (ctx) => stopChannel(ctx, push));
  router.add('GET', START_PAGE_TOKEN_PATH, (ctx) => startPageToken(ctx), { schema: START_PAGE_TOKEN_SCHEMA });
  router.add('GET', CHANGES_PATH, (ctx) => listChanges(ctx, push), { schema: CHANGE_LIST_SCHEMA });
}

function channelResource(channel: Channel): Record<string, unknown> {
  return {
    kind: KIND.channel,
    id: channel.id,
    resourceId: channel.resourceId,
    resourceUri: channel.resourceUri,
    ...(channel.token !== undefined ? { token: channel.token } : {}),
    expiration: channel.expiration,
  };
}

async function watchFile(ctx: RouteContext, push: PushService) {
  const user = ctx.user();
  const fileId = ctx.params.fileId;
  // Anyone the file is visible to (any role) may watch it; others learn nothing about it.
  await fileFor(ctx.svc.files, fileId, user, 'see');
  const now = ctx.svc.clock.now();
  const request = parseWatchRequest(await ctx.readJson(), now, MAX_FILE_TTL_S, ctx.svc.config);
  await deliveryReady(push);
  return openChannel(ctx, push, request, {
    kind: 'file',
    fileId,
    resourceId: opaqueResourceId('file', fileId),
    resourceUri: `${ctx.req.baseUrl}${filePath(fileId)}?alt=json`,
  });
}

async function watchChanges(ctx: RouteContext, push: PushService) {
  const user = ctx.user();
  const pageToken = readPageToken(ctx);
  const now = ctx.svc.clock.now();
  const request = parseWatchRequest(await ctx.readJson(), now, MAX_CHANGES_TTL_S, ctx.svc.config);
  await deliveryReady(push);
  return openChannel(ctx, push, request, {
    kind: 'changes',
    fileId: undefined,
    resourceId: opaqueResourceId('changes', user.email),
    resourceUri: `${ctx.req.baseUrl}${CHANGES_PATH}?alt=json&pageToken=${pageToken}`,
  });
}

/** Registers a validated watch request as a channel of the caller's project (its OAuth client) and answers it. */
async function openChannel(
  ctx: RouteContext,
  push: PushService,
  request: WatchRequest,
  resource: Pick<Channel, 'kind' | 'fileId' | 'resourceId' | 'resourceUri'>,
) {
  const user = ctx.user();
  const channel: Channel = {
    project: user.client,
    id: request.id,
    ...resource,
    address: request.address,
    token: request.token,
    expiration: request.expiration,
    ownerEmail: user.email,
    serviceAccount: user.serviceAccount,
    lastMessageNumber: 1,
  };
  if (!(await push.open(channel))) throw channelIdNotUnique(request.id);
  return ctx.json(200, channelResource(channel), CHANNEL_SCHEMA);
}

/** Fails the watch when delivery cannot run (unreadable `trustCa`/`crl`): a channel that never hears is worse. */
async function deliveryReady(push: PushService): Promise<void> {
  try {
    await push.ready();
  } catch (error) {
    throw new ApiError(500, 'backendError', `Push notifications are unavailable: ${(error as Error).message}.`);
  }
}

function channelIdNotUnique(id: string): ApiError {
  return new ApiError(400, 'channelIdNotUnique', `Channel id ${id} not unique`, {
    where: { location: 'id', locationType: 'body' },
  });
}

async function stopChannel(ctx: RouteContext, push: PushService) {
  const user = ctx.user();
  const body = await ctx.readJson();
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError(400, 'badRequest', 'The stop request body must be a JSON object with id and resourceId.');
  }
  const { id, resourceId } = body as Record<string, unknown>;
  for (const [name, value] of [
    ['id', id],
    ['resourceId', resourceId],
  ] as const) {
    if (value === undefined || value === '') {
      throw new ApiError(400, 'required', `Required field '${name}' is missing.`, {
        where: { location: name, locationType: 'body' },
      });
    }
    if (typeof value !== 'string') {
      throw new ApiError(400, 'invalidParameter', `'${name}' must be a string.`, {
        where: { location: name, locationType: 'body' },
      });
    }
  }
  const channel = await push.channels.get(user.client, id as string);
  // Spec §5: a user's channel only by that user (same client: the project); a service account's by any user of
  // the client. Everything else looks like a channel that does not exist.
  const allowed =
    channel !== undefined &&
    channel.resourceId === resourceId &&
    channel.expiration > ctx.svc.clock.now() &&
    (channel.serviceAccount || channel.ownerEmail === user.email);
  if (!allowed) {
    throw new ApiError(404, 'notFound', `Channel '${id as string}' not found for project '${user.client}'`, {
      where: { location: 'id', locationType: 'body' },
    });
  }
  await push.stop(channel);
  return { status: 204, headers: {} };
}

async function startPageToken(ctx: RouteContext) {
  ctx.user();
  const value = { kind: KIND.startPageToken, startPageToken: String(await ctx.svc.files.nextChangeSeq()) };
  return ctx.json(200, value, START_PAGE_TOKEN_SCHEMA);
}

function readPageToken(ctx: RouteContext): number {
  const raw = ctx.req.query.get('pageToken');
  if (raw === null || raw === '') {
    throw new ApiError(400, 'required', "Required parameter: 'pageToken'.", {
      where: { location: 'pageToken', locationType: 'parameter' },
    });
  }
  if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) {
    throw badParameter(
      'pageToken',
      `Invalid pageToken ${JSON.stringify(raw)}: use a startPageToken, nextPageToken or newStartPageToken value.`,
    );
  }
  return Number(raw);
}

function readPageSize(ctx: RouteContext): number {
  const raw = ctx.req.query.get('pageSize');
  if (raw === null || raw === '') return 100;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > 1000) {
    throw badParameter('pageSize', `Invalid value '${raw}' for pageSize: it must be a whole number from 1 to 1000.`);
  }
  return n;
}

async function listChanges(ctx: RouteContext, push: PushService) {
  const user = ctx.user();
  const from = readPageToken(ctx);
  const pageSize = readPageSize(ctx);
  const rows = await push.changeLog.list(user.email, from, pageSize + 1);
  const page = rows.slice(0, pageSize);
  const changes = await Promise.all(
    page.map(async (change) => {
      const row = change.removed ? undefined : await ctx.svc.files.get(change.fileId);
      const removed = row === undefined;
      return {
        kind: KIND.change,
        changeType: 'file',
        time: rfc3339(change.time),
        removed,
        fileId: change.fileId,
        ...(row ? { file: await ctx.svc.files.resource(row, user) } : {}),
      };
    }),
  );
  const last = page[page.length - 1];
  const more = rows.length > pageSize && last !== undefined;
  const value = {
    kind: KIND.changeList,
    ...(more
      ? { nextPageToken: String(last.seq + 1) }
      : { newStartPageToken: String(await ctx.svc.files.nextChangeSeq()) }),
    changes,
  };
  return ctx.json(200, value, CHANGE_LIST_SCHEMA);
}
