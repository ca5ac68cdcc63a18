/**
 * Bytes, status queries and cancellation on a resumable session URI (spec §3.1, §4.4–4.5, supplement §1): the
 * session store (`store/resumable-sessions.ts`) applies the request under the session's lock; this handler gives it
 * the request and the commit of the finished file (`handlers/file-commit.ts`), and answers 308, 200 or 499.
 */
import {
  FILE_SCHEMA,
  formatStoredRange,
  STATUS_CLIENT_CLOSED,
  STATUS_RESUME_INCOMPLETE,
} from 'store-upload-kit/protocol';
import { principalFor } from '../access.ts';
import type { RouteContext } from '../context.ts';
import { createFile, updateFile } from './file-commit.ts';
import type { IncomingMetadata } from './incoming-metadata.ts';
import type { ApiResponse } from '../api-request.ts';
import type { CommitSession, LockClaim } from '../store/resumable-sessions.ts';

/** `PUT <session>`: whole file, chunk, or status query. */
export async function putSession(
  ctx: RouteContext,
  uploadId: string,
  fileId: string | undefined,
): Promise<ApiResponse> {
  const request = { contentRange: ctx.req.headers['content-range'], body: ctx.req.body, claim: claimOf(ctx) };
  const outcome = await ctx.svc.resumable.put(uploadId, fileId, request, commitFor(ctx));
  if (outcome.kind === 'incomplete') {
    const range = formatStoredRange(outcome.stored);
    return { status: STATUS_RESUME_INCOMPLETE, headers: { 'Content-Length': '0', ...(range && { Range: range }) } };
  }
  const { query, result } = outcome.session;
  return ctx.json(200, result, FILE_SCHEMA, new URLSearchParams(query).get('fields'));
}

/** `DELETE <session>`: cancels (499, empty); afterwards the URI answers 404. */
export async function cancelSession(
  ctx: RouteContext,
  uploadId: string,
  fileId: string | undefined,
): Promise<ApiResponse> {
  await ctx.svc.resumable.cancel(uploadId, fileId, claimOf(ctx));
  return { status: STATUS_CLIENT_CLOSED, headers: { 'Content-Length': '0' } };
}

/** The request as the session lock sees it: when it arrived and how to end it (none for a batch's inner call). */
function claimOf(ctx: RouteContext): LockClaim | undefined {
  const { supersede, arrival } = ctx.req;
  return supersede && arrival !== undefined ? { arrival, end: supersede } : undefined;
}

/**
 * Makes (or updates) the file of a completed session, as the session's owner: the session URI is a capability, so
 * the owner comes from its row, and permissions are checked again now, where the change commits.
 */
function commitFor(ctx: RouteContext): CommitSession {
  return async (s, media) => {
    const who = principalFor(s.user, s.client, { permissionId: s.permissionId });
    const query = new URLSearchParams(s.query);
    const meta = s.metadata as IncomingMetadata;
    const row =
      s.targetFileId === undefined
        ? await createFile(ctx.svc, who, meta, media, query)
        : await updateFile(ctx.svc, who, s.targetFileId, meta, media, query);
    return await ctx.svc.files.resource(row, who);
  };
}
