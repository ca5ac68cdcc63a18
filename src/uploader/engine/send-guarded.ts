import { StoreError } from '../../client/store-error.ts';
import { Interrupt, interruptOf } from './interrupt.ts';
import type { HttpPort, HttpRequest, HttpResponse } from '../contract/ports.ts';

/** Options of one guarded request. */
export interface GuardOptions {
  signal: AbortSignal;
  /** Abort when the body makes no progress for this long. */
  stallTimeoutMs: number;
  /**
   * Once the whole body is out, the answer must come within this long, or the request counts as stalled too: a
   * service that took the bytes and never answers must not hang the upload. Undefined: no limit (a conversion's
   * answer may take as long as OCR needs).
   */
  responseTimeoutMs?: number;
  /** Bytes in the body, to know when sending is over. */
  bodyLength: number;
  onProgress?: (sent: number) => void;
}

/**
 * Sends a request through the HTTP port with stall detection: no upload progress for `stallTimeoutMs` aborts it with
 * an `Interrupt('stall')`. Rejects with the caller's abort reason when `signal` aborts, and with a `StoreError` of
 * status 0 when no response arrived (network error, connection cut).
 */
export async function sendGuarded(http: HttpPort, request: HttpRequest, options: GuardOptions): Promise<HttpResponse> {
  const inner = new AbortController();
  const forward = () => inner.abort(options.signal.reason);
  if (options.signal.aborted) throw options.signal.reason;
  options.signal.addEventListener('abort', forward, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (ms: number | undefined) => {
    clearTimeout(timer);
    if (ms !== undefined) timer = setTimeout(() => inner.abort(new Interrupt('stall')), ms);
  };
  // An empty body never reports progress: its whole wait is for the answer.
  arm(options.bodyLength === 0 ? options.responseTimeoutMs : options.stallTimeoutMs);
  try {
    return await http.send(request, {
      signal: inner.signal,
      onProgress: (sent) => {
        // Once the whole body is out, the wait is for the service's answer (completion, conversion).
        arm(sent >= options.bodyLength ? options.responseTimeoutMs : options.stallTimeoutMs);
        options.onProgress?.(sent);
      },
    });
  } catch (error) {
    if (inner.signal.aborted) throw inner.signal.reason;
    throw StoreError.network(request.method, request.url, error);
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener('abort', forward);
  }
}

/**
 * `sendGuarded` for a request that makes something on the service (a resumable session): a cancel stops the wait at
 * once but not the request — aborted, its answer would be lost while what the service made lingers — and the late
 * answer goes to `late` (the stall timeout still bounds it). Any other interrupt aborts the request as usual.
 */
export async function sendSurvivingCancel(
  http: HttpPort,
  request: HttpRequest,
  options: GuardOptions,
  late: (response: HttpResponse) => void,
): Promise<HttpResponse> {
  const outer = options.signal;
  if (outer.aborted) throw outer.reason;
  const inner = new AbortController();
  let cancelled!: (reason: unknown) => void;
  const cancel = new Promise<never>((_, reject) => (cancelled = reject));
  const forward = () =>
    interruptOf(outer.reason)?.kind === 'cancel' ? cancelled(outer.reason) : inner.abort(outer.reason);
  outer.addEventListener('abort', forward, { once: true });
  const sending = sendGuarded(http, request, { ...options, signal: inner.signal });
  try {
    return await Promise.race([sending, cancel]);
  } catch (error) {
    if (interruptOf(error)?.kind === 'cancel') sending.then(late, () => undefined);
    throw error;
  } finally {
    outer.removeEventListener('abort', forward);
  }
}

/** How much longer than the stall timeout the request that completes a file may take to answer (storing, hashing). */
const FINAL_ANSWER_FACTOR = 4;

/**
 * The answer timeout of an upload request: the stall timeout for a request that only adds bytes, a few times that
 * for the request that completes the file, and none when the service converts it (OCR takes what it takes).
 */
export function answerWithin(
  ctx: { stallTimeoutMs: number },
  converting: boolean,
  final: boolean,
): { responseTimeoutMs?: number } {
  if (converting) return {};
  return { responseTimeoutMs: final ? ctx.stallTimeoutMs * FINAL_ANSWER_FACTOR : ctx.stallTimeoutMs };
}
