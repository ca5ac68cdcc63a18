/**
 * A Fetch API request's body as the service reads it ({@link RequestBody}), the counterpart of `node-body.ts` for
 * hosts that hand over a `Request` (Next.js route handlers, Hono, Bun): `request.body` is read chunk by chunk, so
 * a large upload is never held in memory, under the same idle timeout and the same 413 past a buffered limit. The
 * body can also be ended with an answer (a resumable session's older request, superseded by a newer one).
 */
import type { ApiError } from '../errors.ts';
import type { RequestBody } from '../api-request.ts';
import { BodyCutError, BodyIdleError, tooLarge } from './node-body.ts';

/** A body that can be ended early with an answer. */
export interface EndableRequestBody extends RequestBody {
  /** Ends the body: its reader's wait in progress, or its next one, fails with `answer`. */
  end(answer: ApiError): void;
}

/** The body of `request`, read once; `idleMs` without a byte ends it. */
export function fetchBody(request: Request, idleMs: number): EndableRequestBody {
  const lengthHeader = request.headers.get('content-length');
  const length = lengthHeader !== null && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : undefined;
  let used = false;
  let ended: ApiError | undefined;
  let wake: ((answer: ApiError) => void) | undefined;

  async function* chunks(): AsyncGenerator<Uint8Array> {
    if (used) throw new Error('the request body was already read');
    used = true;
    if (request.body === null) return;
    const reader = request.body.getReader();
    let done = false;
    try {
      for (;;) {
        if (ended) throw ended;
        let timer: NodeJS.Timeout | undefined;
        const stop = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new BodyIdleError(idleMs)), idleMs);
          wake = reject;
        });
        let next: Awaited<ReturnType<typeof reader.read>>;
        try {
          next = await Promise.race([reader.read(), stop]);
        } catch (e) {
          if (e instanceof BodyIdleError || (ended !== undefined && e === ended)) throw e;
          // The host's stream failed: the client went away mid-body.
          throw new BodyCutError(0, length);
        } finally {
          clearTimeout(timer);
          wake = undefined;
        }
        if (next.done) {
          done = true;
          return;
        }
        yield next.value;
      }
    } finally {
      // A reader that stopped early (an error, a parser done with the envelope) lets the host discard the rest.
      if (!done) void reader.cancel().catch(() => undefined);
      reader.releaseLock();
    }
  }

  return {
    length,
    async bytes(limit = 1024 * 1024) {
      if (length !== undefined && length > limit) {
        used = true;
        throw tooLarge(limit);
      }
      const parts: Uint8Array[] = [];
      let size = 0;
      for await (const chunk of chunks()) {
        size += chunk.length;
        if (size > limit) throw tooLarge(limit);
        parts.push(chunk);
      }
      return Buffer.concat(parts);
    },
    async *stream() {
      let received = 0;
      for await (const chunk of chunks()) {
        received += chunk.length;
        yield chunk;
      }
      // A body that stops short of its Content-Length was cut off, whatever the stream reported.
      if (length !== undefined && received < length) throw new BodyCutError(received, length);
    },
    end(answer) {
      if (ended) return;
      ended = answer;
      wake?.(answer);
    },
  };
}
