import { backoffDelay, type BackoffOptions } from '../protocol/backoff.ts';
import {
  BATCH_MAX_CALLS,
  encodeBatchRequest,
  parseBatchResponse,
  batchResponsesById,
  type BatchRequestInit,
  type ParsedBatchResponse,
} from '../protocol/batch-codec.ts';
import { H_AUTHORIZATION, H_CONTENT_TYPE, bearer } from '../protocol/headers.ts';
import { multipartBoundary } from '../protocol/multipart.ts';
import { utf8Decode } from '../protocol/multipart-text.ts';
import { BATCH_PATH } from '../protocol/routes.ts';
import type { ApiCall } from './api-call.ts';
import { encodeBody } from './encode-body.ts';
import { StoreError } from './store-error.ts';
import type { TokenSource } from './token-source.ts';
import type { BatchOutcome } from './types.ts';
import { joinUrl, pathWithQuery } from './url.ts';

/** What `runBatch` needs from the client. */
export interface BatchContext {
  baseUrl: string;
  fetch: typeof fetch;
  tokens: TokenSource;
  retries: number;
  backoff?: BackoffOptions;
  signal?: AbortSignal;
}

/**
 * Runs calls through `POST /batch/store/v3` (spec §4.11): groups of at most 100, answers matched back by Content-ID
 * (the service may run calls in any order), and calls that failed with 5xx or a rate limit sent again after a
 * backoff, up to `retries` times. One outcome per call, in the order given.
 */
export async function runBatch(
  calls: readonly ApiCall<unknown>[],
  ctx: BatchContext,
): Promise<BatchOutcome<unknown>[]> {
  const outcomes: BatchOutcome<unknown>[] = new Array<BatchOutcome<unknown>>(calls.length);
  let pending = calls.map((_, i) => i);
  let refreshToken = false;
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt > 0) await sleep(backoffDelay(attempt - 1, ctx.backoff), ctx.signal);
    const retry: number[] = [];
    let unauthorized = false;
    for (let from = 0; from < pending.length; from += BATCH_MAX_CALLS) {
      const group = pending.slice(from, from + BATCH_MAX_CALLS);
      const answers = await sendGroup(group, calls, ctx, refreshToken);
      for (const index of group) {
        const outcome = answers.get(index) ?? failure(0, 'The batch response had no part for this call.');
        outcomes[index] = outcome;
        if (!outcome.ok && (outcome.error.retryable || outcome.status === 0 || outcome.status === 401))
          retry.push(index);
        if (!outcome.ok && outcome.status === 401) unauthorized = true;
      }
    }
    // A 401 gets one fresh token (the app refreshes it in getAccessToken), not a backoff loop.
    if (unauthorized && refreshToken) pending = retry.filter((i) => outcomes[i]?.status !== 401);
    else pending = retry;
    refreshToken = unauthorized;
    if (attempt >= ctx.retries) break;
  }
  return outcomes;
}

async function sendGroup(
  group: number[],
  calls: readonly ApiCall<unknown>[],
  ctx: BatchContext,
  refreshToken: boolean,
): Promise<Map<number, BatchOutcome<unknown>>> {
  const parts: BatchRequestInit[] = group.map((index) => {
    const call = calls[index];
    const { body, contentType } = encodeBody(call.body);
    if (body !== undefined && typeof body !== 'string' && !(body instanceof Uint8Array)) {
      throw new TypeError(
        `batch call ${index} has a body that is not JSON, text or bytes (no media in batches: spec §4.11)`,
      );
    }
    const headers: Record<string, string> = { ...(contentType && { 'Content-Type': contentType }), ...call.headers };
    return {
      method: call.method,
      path: pathWithQuery(call.path, call.query, call.fields),
      headers,
      ...(body !== undefined && { body }),
      contentId: `call-${index}`,
    };
  });
  const encoded = encodeBatchRequest(parts);
  const answers = new Map<number, BatchOutcome<unknown>>();
  let response: Response;
  try {
    const token = await ctx.tokens.get(refreshToken);
    response = await ctx.fetch(joinUrl(ctx.baseUrl, BATCH_PATH), {
      method: 'POST',
      headers: { [H_CONTENT_TYPE]: encoded.contentType, [H_AUTHORIZATION]: bearer(token) },
      body: encoded.body as Uint8Array<ArrayBuffer>,
      ...(ctx.signal && { signal: ctx.signal }),
    });
  } catch (error) {
    if (ctx.signal?.aborted) throw ctx.signal.reason;
    for (const index of group) answers.set(index, failure(0, `Network error on batch: ${(error as Error).message}`));
    return answers;
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (!response.ok) {
    const error = StoreError.fromResponse(response.status, utf8Decode(bytes));
    for (const index of group) answers.set(index, { ok: false, status: response.status, error });
    return answers;
  }
  let parsed: Map<string, ParsedBatchResponse>;
  try {
    parsed = batchResponsesById(
      parseBatchResponse(bytes, multipartBoundary(response.headers.get(H_CONTENT_TYPE), 'mixed')),
    );
  } catch (error) {
    for (const index of group) answers.set(index, failure(0, `Unreadable batch response: ${(error as Error).message}`));
    return answers;
  }
  for (const index of group) {
    const part = parsed.get(`call-${index}`);
    if (!part) continue;
    const text = utf8Decode(part.body);
    if (part.status >= 200 && part.status < 300) {
      answers.set(index, { ok: true, status: part.status, value: text ? (JSON.parse(text) as unknown) : undefined });
    } else {
      answers.set(index, { ok: false, status: part.status, error: StoreError.fromResponse(part.status, text) });
    }
  }
  return answers;
}

function failure(status: number, message: string): BatchOutcome<never> {
  return { ok: false, status, error: new StoreError(status, message) };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
