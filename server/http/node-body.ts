/**
 * A Node request's body as the service reads it ({@link RequestBody}): streamed chunk by chunk under an idle timeout,
 * or buffered up to a limit (413 past it); a body cut short of its length, or whose framing is malformed, fails.
 */
import { ApiError } from '../errors.ts';
import type { RequestBody } from '../api-request.ts';
import type { BodyFraming } from './lingering-close.ts';
import { untilBroken } from './endable-body.ts';
import type { NodeRequest } from './transport.ts';

/**
 * The chunks of a request body. While the consumer waits for the next chunk a timer runs: no byte for `idleMs`
 * ends the request (a stalled client must not hold a session lock or a connection for ever). A body whose framing
 * is malformed ends early and fails here with its 400.
 */
async function* chunksOf(req: NodeRequest, idleMs: number, framing: BodyFraming): AsyncGenerator<Buffer> {
  // destroyOnReturn false: a consumer that stops early (a parser rejecting the envelope) must not destroy the
  // request, or the error answer could not be written; the unread rest is discarded after the answer
  // (lingering-close.ts).
  const it = req.iterator({ destroyOnReturn: false }) as AsyncIterator<Buffer>;
  // Set when the consumer stops early; an iterator that ended or failed is not told to return (it would wait).
  let early = true;
  try {
    for (;;) {
      const timer = setTimeout(() => req.destroy(new BodyIdleError(idleMs)), idleMs);
      let next: IteratorResult<Buffer>;
      try {
        // Bytes parsed before a framing error are read first; then the error.
        if (framing.error && req.readableLength === 0) throw framing.error;
        next = await (req.readableLength > 0 ? it.next() : untilBroken(it.next(), framing));
      } catch (e) {
        early = false;
        throw e;
      } finally {
        clearTimeout(timer);
      }
      if (next.done) {
        early = false;
        return;
      }
      yield next.value;
    }
  } finally {
    if (early) await it.return?.();
  }
}

/** The body of a Node request, read once (buffered up to a limit, or streamed), ended by `framing` or an idle timeout. */
export function nodeBody(req: NodeRequest, idleMs: number, framing: BodyFraming): RequestBody {
  const lengthHeader = req.headers['content-length'];
  const length = lengthHeader !== undefined && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : undefined;
  let used = false;
  const claim = () => {
    if (used) throw new Error('the request body was already read');
    used = true;
  };
  return {
    length,
    async bytes(limit = 1024 * 1024) {
      claim();
      if (length !== undefined && length > limit) throw tooLarge(limit);
      const parts: Buffer[] = [];
      let size = 0;
      for await (const chunk of chunksOf(req, idleMs, framing)) {
        size += chunk.length;
        if (size > limit) throw tooLarge(limit);
        parts.push(chunk);
      }
      return Buffer.concat(parts);
    },
    async *stream() {
      claim();
      let received = 0;
      for await (const chunk of chunksOf(req, idleMs, framing)) {
        received += chunk.length;
        yield chunk;
      }
      // A body that stops short of its Content-Length was cut off, whatever the stream reported.
      if (!req.complete || (length !== undefined && received < length)) throw new BodyCutError(received, length);
    },
  };
}

/** No byte of the request body arrived for the idle timeout: the request was ended. */
export class BodyIdleError extends Error {
  constructor(idleMs: number) {
    super(`no byte of the request body arrived for ${idleMs} ms`);
    this.name = 'BodyIdleError';
  }
}

/** The request body ended before it was complete (the client went away). */
export class BodyCutError extends Error {
  constructor(received: number, expected: number | undefined) {
    super(`the request body was cut off after ${received} of ${expected ?? 'an unknown number of'} bytes`);
    this.name = 'BodyCutError';
  }
}

/** 413 for a body over `limit` bytes (the Fetch transport answers it the same way). */
export function tooLarge(limit: number): ApiError {
  return new ApiError(
    413,
    'requestTooLarge',
    `The request body is larger than the limit of ${limit} bytes for this endpoint.`,
  );
}
