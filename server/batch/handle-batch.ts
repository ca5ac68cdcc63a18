/**
 * `POST /batch/store/v3` (spec §4.11, supplement §6): unwraps the inner calls, runs each through the very same
 * `dispatch` as a direct call (routing, auth, `fields`, errors), concurrently, and wraps the answers in request
 * order. Inner failures keep the outer 200; only a broken envelope fails the whole request.
 */
import {
  BATCH_MAX_CALLS,
  encodeBatchResponse,
  MultipartError,
  multipartBoundary,
  parseBatchRequest,
  type BatchResponseInit,
  type ParsedBatchRequest,
} from 'store-upload-kit/protocol';
import { ApiError } from '../errors.ts';
import type { ApiRequest, ApiResponse } from '../api-request.ts';
import { innerRequest } from './inner-request.ts';

/** The service's dispatcher: one call in, one answer out. */
export type Dispatch = (req: ApiRequest) => Promise<ApiResponse>;

/** The group commit the inner calls share (`store/commit-group.ts`). */
export interface BatchCommit {
  open(): void;
  close(): void;
}

/** Cap on a whole batch body: 100 calls of JSON metadata fit easily; the envelope is held in memory. */
const BATCH_BODY_LIMIT = 16 * 1024 * 1024;
/** Cap on one inner answer read into memory (media downloads are refused before dispatch anyway). */
const INNER_RESPONSE_LIMIT = 16 * 1024 * 1024;

/** The in-batch answer for every call past the 100th (supplement §6). */
const SOFT_LIMIT_MESSAGE = 'Exceeds allowed inner batch requests soft limit. Please retry.';

/**
 * Answers a batch request.
 * @throws ApiError 400 for a missing or non-multipart `Content-Type`, a missing boundary or an unparsable body;
 *   413 (from the body reader) for an oversized body.
 */
export async function handleBatch(req: ApiRequest, dispatch: Dispatch, commit?: BatchCommit): Promise<ApiResponse> {
  let parts: ParsedBatchRequest[];
  try {
    const boundary = multipartBoundary(req.headers['content-type'], 'mixed');
    parts = parseBatchRequest(await req.body.bytes(BATCH_BODY_LIMIT), boundary);
  } catch (err) {
    if (err instanceof MultipartError) throw new ApiError(400, 'badRequest', err.message);
    throw err;
  }
  // One durable write for every inner call's change instead of one each; each call is still its own savepoint, so
  // it succeeds or fails alone. The outer dispatch answers only once the group is durable.
  commit?.open();
  let answers: BatchResponseInit[];
  try {
    answers = await Promise.all(parts.map((part, i) => answerPart(part, i, req, dispatch)));
  } finally {
    commit?.close();
  }
  const encoded = encodeBatchResponse(answers);
  return { status: 200, headers: { 'Content-Type': encoded.contentType }, body: encoded.body };
}

async function answerPart(
  part: ParsedBatchRequest,
  index: number,
  outer: ApiRequest,
  dispatch: Dispatch,
): Promise<BatchResponseInit> {
  let res: ApiResponse;
  if (index >= BATCH_MAX_CALLS) {
    res = new ApiError(403, 'forbidden', SOFT_LIMIT_MESSAGE).toResponse();
  } else {
    try {
      res = await dispatch(innerRequest(part, outer));
    } catch (err) {
      res = errorResponse(err);
    }
  }
  let body: Uint8Array | string;
  try {
    body = await bodyBytes(res.body);
  } catch (err) {
    res = errorResponse(err);
    body = await bodyBytes(res.body);
  }
  // A HEAD answer carries no body (RFC 9110 §9.3.2), inside a batch as on the wire.
  if (part.method === 'HEAD') body = '';
  return { status: res.status, headers: res.headers, body, contentId: part.contentId };
}

function errorResponse(err: unknown): ApiResponse {
  if (err instanceof ApiError) return err.toResponse();
  const why = err instanceof Error ? err.message : String(err);
  return new ApiError(500, 'backendError', `The inner request failed: ${why}`).toResponse();
}

/** Reads an answer's body into memory: the batch response is written whole. */
async function bodyBytes(body: ApiResponse['body']): Promise<Uint8Array | string> {
  if (body === undefined) return '';
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Uint8Array | string>) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += bytes.length;
    if (size > INNER_RESPONSE_LIMIT) {
      body.destroy();
      throw new ApiError(500, 'backendError', `An inner response exceeded ${INNER_RESPONSE_LIMIT} bytes.`);
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}
