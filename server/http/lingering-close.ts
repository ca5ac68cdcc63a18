/**
 * Answers for requests whose body has not all arrived: a body over a limit (413) or refused before it was read,
 * and a body whose chunked framing is malformed (400). Node's own ways to end such a connection lose the answer:
 * it stops reading, so a client that sends its whole body before it reads stalls until the keep-alive timer
 * destroys the socket (EPIPE), and `socket.destroy()` with bytes still arriving makes the kernel answer them with a
 * reset, which can discard the answer before the client reads it. So, as nginx's lingering close: the answer says
 * `Connection: close`, the rest of the body is read and discarded, and the connection is closed once the client
 * has sent everything (or closed its side), or a bound of time or bytes is reached.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError } from '../errors.ts';

/** How long a lingering connection lives, and how much it reads. */
export interface LingerLimits {
  /** Ms from the answer's end, after which the connection is destroyed. */
  readonly ms: number;
  /** Bytes of the body discarded after the answer was decided; past them the connection reads nothing more. */
  readonly bytes: number;
}

/** A request whose body is still arriving, and why it can no longer arrive whole. */
interface OpenBody extends BodyFraming {
  readonly req: IncomingMessage;
  error: ApiError | undefined;
  fail: (e: ApiError) => void;
  /** Set while the connection lingers after its answer: the body will not end, so stop waiting for it. */
  lingering?: () => void;
}

/** The request each connection is receiving a body for (HTTP/1.1 parses one body at a time per connection). */
const openBodies = new WeakMap<Socket, OpenBody>();

/** How a body reader learns that the body's framing was malformed (the parser then sends no further byte or end). */
export interface BodyFraming {
  /** The 400 to answer with once the bytes parsed before the error are read; undefined while the framing holds. */
  readonly error: ApiError | undefined;
  /**
   * Calls `listener` once when the framing breaks; returns what stops listening. A reader subscribes for each wait
   * and unsubscribes after it: racing one long-lived promise for every chunk would keep a reaction, and with it the
   * chunk it resolved to, for each of them until the body ends (a 1 GiB upload held whole in memory).
   */
  onBroken(listener: (error: ApiError) => void): () => void;
}

/** Registers `req`'s body as the one its connection is receiving (see {@link failMalformedBody}). */
export function watchBody(req: IncomingMessage): BodyFraming {
  // Nobody may be waiting when the failure comes; the reader's next wait sees `error`.
  const listeners = new Set<(error: ApiError) => void>();
  const fail = (error: ApiError): void => {
    for (const listener of listeners) listener(error);
    listeners.clear();
  };
  const onBroken = (listener: (error: ApiError) => void): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  const open: OpenBody = { req, error: undefined, onBroken, fail };
  if (!req.complete) openBodies.set(req.socket, open);
  return open;
}

/**
 * Handles a parser error on `socket` if it belongs to a request body still arriving: its reader fails with a 400
 * once it has read the bytes parsed before the error (a resumable session keeps their whole blocks). Returns
 * false when the error is not a body's, so the caller handles it as before.
 */
export function failMalformedBody(socket: Socket, err: NodeJS.ErrnoException): boolean {
  const open = openBodies.get(socket);
  if (!open || open.req.complete) return false;
  const code = err.code ?? '';
  // The client ending the connection mid-body is a cut, not a malformed body: the caller drops the connection.
  if (!code.startsWith('HPE_') || code === 'HPE_INVALID_EOF_STATE') return false;
  // The parser stays in error and reports every later byte again: only the first report counts.
  if (open.error === undefined) {
    const error = new ApiError(400, 'badRequest', `The request body is not valid HTTP: ${err.message} (${code}).`);
    open.error = error;
    // After the bytes this parse pushed reach a waiting reader (their 'readable' is a next tick away).
    setImmediate(() => open.fail(error));
    open.lingering?.();
  }
  return true;
}

/**
 * Call before writing the answer to a request whose body has not all arrived: marks the answer
 * `Connection: close`, discards the rest of the body, and replaces Node's close after the answer (which destroys
 * the socket) with a lingering one.
 */
export function lingerAfterAnswer(req: IncomingMessage, res: ServerResponse, limits: LingerLimits): void {
  const socket = req.socket;
  res.setHeader('Connection', 'close');
  let discarded = 0;
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    // Past the bound the connection reads no more: the client's sends stall on a full window while it can still
    // read the answer, and the time bound drops the connection. Destroyed here, a fast client's bytes could pass the
    // bound before the answer was written, and the client got no answer at all (a CI run at load 12).
    if (discarded > limits.bytes) req.pause();
  });
  req.resume();
  // Node ends an answer marked `Connection: close` with `socket.destroySoon()`.
  socket.destroySoon = () => {
    const timer = setTimeout(() => socket.destroy(), limits.ms);
    socket.once('close', () => clearTimeout(timer));
    // Once the client has nothing more to send (its body ended, or it closed its side): FIN, then destroy.
    const close = () => {
      if (!socket.writableEnded) socket.end();
      if (socket.writableFinished) socket.destroy();
      else socket.once('finish', () => socket.destroy());
    };
    if (req.complete) return close();
    socket.once('end', close);
    req.once('end', close);
    // A body the parser can still follow is read to its end before the FIN: a client that sends all before it
    // reads (and stops at a FIN, as Node's sockets do) gets to read the answer. A malformed body never ends and
    // the client's further bytes mean nothing: half-close then, so a client waiting for the connection's end sees
    // it, and keep reading until it closes its side.
    const open = openBodies.get(socket);
    if (open?.error) socket.end();
    else if (open) open.lingering = () => socket.end();
  };
}
