import { StoreError } from '../client/index.ts';
import { Interrupt } from './interrupt.ts';
import type { HttpPort, HttpRequest, HttpResponse } from './ports.ts';

/** Options of one guarded request. */
export interface GuardOptions {
  signal: AbortSignal;
  /** Abort when the body makes no progress for this long (the response wait after the last byte is not limited). */
  stallTimeoutMs: number;
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
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => inner.abort(new Interrupt('stall')), options.stallTimeoutMs);
  };
  arm();
  try {
    return await http.send(request, {
      signal: inner.signal,
      onProgress: (sent) => {
        // Once the whole body is out, waiting for the answer is the service's time (completion, conversion).
        if (sent >= options.bodyLength) clearTimeout(timer);
        else arm();
        options.onProgress?.(sent);
      },
    });
  } catch (error) {
    if (inner.signal.aborted) throw inner.signal.reason;
    throw new StoreError(0, `Network error on ${request.method} ${request.url}: ${(error as Error)?.message ?? error}`);
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener('abort', forward);
  }
}
