/**
 * Bytes, status queries and cancellation on a resumable session URI (spec §3.1, §4.4–4.5, supplement §1).
 *
 * Storage rule: a request that does not finish the upload keeps only whole 256 KiB blocks; a request cut off
 * mid-body keeps every whole block it delivered. Rejected requests never lose bytes stored before them.
 */
import {
  BLOCK_SIZE,
  type ContentRange,
  FILE_SCHEMA,
  floorToBlock,
  formatStoredRange,
  MESSAGES,
  parseContentRange,
  STATUS_CLIENT_CLOSED,
  STATUS_RESUME_INCOMPLETE,
} from 'store-upload-kit/protocol';
import { principalFor } from '../access.ts';
import type { Principal } from '../access.ts';
import type { RouteContext } from '../context.ts';
import { ApiError, uploadProtocolError } from '../errors.ts';
import { createFile, updateFile } from '../files/commit.ts';
import type { IncomingMetadata } from '../files/metadata.ts';
import type { ApiResponse } from '../http/types.ts';
import type { LockClaim, SessionRow } from '../store/sessions.ts';

function sessionNotFound(): ApiError {
  return new ApiError(404, 'notFound', 'The upload session was not found or has expired; start the upload again.', {
    where: { location: 'upload_id', locationType: 'parameter' },
  });
}

function incomplete(stored: number): ApiResponse {
  const range = formatStoredRange(stored);
  return { status: STATUS_RESUME_INCOMPLETE, headers: { 'Content-Length': '0', ...(range ? { Range: range } : {}) } };
}

/** The session's owner, rebuilt from the row (the session URI is a capability: no token needed). */
function ownerOf(s: SessionRow): Principal {
  return principalFor(s.user, s.client);
}

function finalResponse(ctx: RouteContext, s: SessionRow): ApiResponse {
  const selection = new URLSearchParams(s.query).get('fields');
  return ctx.json(200, s.result, FILE_SCHEMA, selection);
}

/** `DELETE <session>`: cancels (499, empty); afterwards the URI answers 404. */
export async function cancelSession(
  ctx: RouteContext,
  uploadId: string,
  fileId: string | undefined,
): Promise<ApiResponse> {
  return ctx.svc.sessions.withLock(uploadId, claimOf(ctx), async () => {
    const s = ctx.svc.sessions.get(uploadId);
    if (!s || s.targetFileId !== fileId) throw sessionNotFound();
    ctx.svc.sessions.cancel(uploadId);
    return { status: STATUS_CLIENT_CLOSED, headers: { 'Content-Length': '0' } };
  });
}

/** `PUT <session>`: whole file, chunk, or status query. */
export async function putSession(
  ctx: RouteContext,
  uploadId: string,
  fileId: string | undefined,
): Promise<ApiResponse> {
  return ctx.svc.sessions.withLock(uploadId, claimOf(ctx), () => putLocked(ctx, uploadId, fileId));
}

/** The request as the session lock sees it: when it arrived and how to end it (none for a batch's inner call). */
function claimOf(ctx: RouteContext): LockClaim | undefined {
  const { cutConnection, arrival } = ctx.req;
  return cutConnection && arrival !== undefined ? { arrival, end: cutConnection } : undefined;
}

async function putLocked(ctx: RouteContext, uploadId: string, fileId: string | undefined): Promise<ApiResponse> {
  const { sessions, sessionBytes } = ctx.svc;
  const s = sessions.get(uploadId);
  if (!s || s.targetFileId !== fileId) throw sessionNotFound();
  if (s.state === 'complete') return finalResponse(ctx, s);
  sessions.touch(uploadId);
  const stored = sessionBytes.stored(uploadId);
  const header = ctx.req.headers['content-range'];
  let range: ContentRange | undefined;
  if (header !== undefined) {
    range = parseContentRange(header);
    if (!range) throw uploadProtocolError(400, MESSAGES.contentRangeUnparsable);
  }
  const bodyLength = ctx.req.body.length;

  if (range?.kind === 'status') {
    if (bodyLength !== undefined && bodyLength > 0) {
      throw uploadProtocolError(
        400,
        `A status query (Content-Range: ${header}) must have an empty body; this one has ${bodyLength} byte(s).`,
      );
    }
    if (bodyLength === undefined && (await ctx.req.body.bytes(BLOCK_SIZE)).length > 0) {
      throw uploadProtocolError(400, `A status query (Content-Range: ${header}) must have an empty body.`);
    }
    checkTotal(s, range.total, undefined, stored);
    if (range.total !== undefined && s.total === undefined) sessions.setTotal(uploadId, range.total);
    if (range.total !== undefined && stored === range.total) return finish(ctx, s, stored, []);
    return incomplete(stored);
  }

  // A data request: a chunk with Content-Range, or (without it) the whole file from byte 0.
  const first = range ? range.first : 0;
  const last = range ? range.last : undefined;
  const total = range ? range.total : undefined;
  checkTotal(s, total, last, stored);
  if (range && last !== undefined && bodyLength !== undefined && bodyLength !== last - first + 1) {
    throw uploadProtocolError(
      400,
      `Content-Length is ${bodyLength} but Content-Range ${header} covers ${last - first + 1} byte(s).`,
    );
  }
  if (first > stored) throw uploadProtocolError(503, MESSAGES.offsetGap(first, stored));
  const knownFinal =
    range === undefined ? true : last !== undefined ? total !== undefined && last + 1 === total : undefined;
  const expected = last !== undefined ? last - first + 1 : range === undefined ? bodyLength : undefined;
  if (knownFinal === false && expected !== undefined && expected < BLOCK_SIZE) throw chunkTooSmall(expected);

  const { received, tail } = await sessionBytes.append(uploadId, stored, first, ctx.req.body.stream());
  const end = first + received;
  // A refused request keeps nothing: the part goes back to what was stored before it.
  const revert = async (error: ApiError): Promise<never> => {
    await sessionBytes.keep(uploadId, stored);
    throw error;
  };
  if (range && last !== undefined && received !== last - first + 1) {
    return revert(
      uploadProtocolError(
        400,
        `The body has ${received} byte(s) but Content-Range ${header} covers ${last - first + 1}.`,
      ),
    );
  }
  let final: boolean;
  if (range === undefined) {
    // The whole file: its size is the body's.
    const conflict = contradiction(s, end);
    if (conflict) return revert(uploadProtocolError(400, conflict));
    // A shorter "whole file" than what is stored cannot be the file those stored bytes belong to.
    if (end < stored)
      return revert(
        uploadProtocolError(
          400,
          `The body has ${end} byte(s) but ${stored} byte(s) of this upload are already stored.`,
        ),
      );
    final = true;
  } else if (last === undefined) {
    if (total !== undefined && end > total)
      return revert(
        uploadProtocolError(400, `The body runs past the total of ${total} byte(s) in Content-Range ${header}.`),
      );
    final = end === total;
  } else {
    final = knownFinal === true;
  }
  if (!final && received < BLOCK_SIZE) return revert(chunkTooSmall(received));
  // Recorded only once the request is accepted: a rejected request changes nothing.
  if (total !== undefined && s.total === undefined) sessions.setTotal(uploadId, total);
  if (final) {
    const size = Math.max(stored, end);
    if (range === undefined && s.total === undefined) sessions.setTotal(uploadId, size);
    return finish(ctx, s, size, tail);
  }
  const kept = floorToBlock(Math.max(stored, end));
  await sessionBytes.keep(uploadId, kept);
  return incomplete(kept);
}

function chunkTooSmall(size: number): ApiError {
  return uploadProtocolError(
    400,
    `Invalid chunk size: every chunk except the last must be a multiple of ${BLOCK_SIZE} bytes (256 KiB); this one has ${size} byte(s).`,
  );
}

/**
 * A total (from Content-Range) that contradicts an earlier one or X-Upload-Content-Length, is below what is already
 * stored (the session could never finish), or a range past it.
 */
function checkTotal(s: SessionRow, total: number | undefined, last: number | undefined, stored: number): void {
  if (total !== undefined) {
    if (total < stored) {
      throw uploadProtocolError(
        400,
        `The total size ${total} is smaller than the ${stored} byte(s) already stored for this upload.`,
      );
    }
    if (s.total !== undefined && total !== s.total) {
      throw uploadProtocolError(
        400,
        `The total size ${total} contradicts the total ${s.total} given earlier for this upload.`,
      );
    }
    if (s.declaredLength !== undefined && total !== s.declaredLength) {
      throw uploadProtocolError(
        400,
        `The total size ${total} contradicts X-Upload-Content-Length ${s.declaredLength}.`,
      );
    }
    if (last !== undefined && last >= total)
      throw uploadProtocolError(400, `The range ends at byte ${last}, beyond the total of ${total} byte(s).`);
  }
}

function contradiction(s: SessionRow, size: number): string | undefined {
  if (s.declaredLength !== undefined && size !== s.declaredLength) {
    return `The upload has ${size} byte(s) but X-Upload-Content-Length declared ${s.declaredLength}.`;
  }
  if (s.total !== undefined && size !== s.total)
    return `The upload has ${size} byte(s) but its total was given as ${s.total}.`;
  return undefined;
}

/** Completes a session holding `size` bytes: moves the part into a blob, commits the file, answers 200. */
async function finish(
  ctx: RouteContext,
  s: SessionRow,
  size: number,
  tail: readonly Uint8Array[],
): Promise<ApiResponse> {
  const sessions = ctx.svc.sessions;
  const { blob, md5 } = await ctx.svc.sessionBytes.complete(s.id, size, tail);
  const who = ownerOf(s);
  const query = new URLSearchParams(s.query);
  const media = { blob, size, md5, contentType: s.contentType };
  const meta = s.metadata as IncomingMetadata;
  let row;
  try {
    row =
      s.targetFileId === undefined
        ? await createFile(ctx.svc, who, meta, media, query)
        : await updateFile(ctx.svc, who, s.targetFileId, meta, media, query);
  } catch (e) {
    // The commit was refused (e.g. the target was deleted meanwhile): the session cannot complete.
    sessions.cancel(s.id);
    await ctx.svc.blobs.remove(blob);
    throw e;
  }
  const resource = ctx.svc.files.resource(row, who);
  sessions.complete(s.id, resource);
  return finalResponse(ctx, { ...s, state: 'complete', result: resource });
}
