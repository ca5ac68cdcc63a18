/**
 * Sends one push message over HTTPS and classifies the answer as spec §6.5 and supplement §8 ask: delivered,
 * worth a retry, or dropped.
 */
import { request, type Agent } from 'node:https';
import { encodePushMessage, type PushMessage } from './message.ts';

/** Receiver statuses that count as delivered (spec §6.5). */
const SUCCESS_STATUSES: ReadonlySet<number> = new Set([200, 201, 202, 204, 102]);
/** Receiver statuses that are retried with backoff (spec §6.5). */
const RETRY_STATUSES: ReadonlySet<number> = new Set([500, 502, 503, 504]);

/** What became of one attempt. `reason` is for logs: a status, a TLS or network error code. */
export type PostOutcome =
  | { kind: 'delivered'; status: number }
  | { kind: 'retry'; status?: number; reason: string }
  | { kind: 'drop'; status?: number; reason: string };

// Errors that mean nobody is there to receive: dropped, as the supplement says of an unreachable receiver.
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'EADDRNOTAVAIL']);
// A connection that broke after it was made (or a stale kept-alive socket) is treated like a 502: retried.
const TRANSIENT = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED']);

/**
 * POSTs `message` to its address through `agent` (which carries the TLS trust). Never rejects.
 * A certificate problem (self-signed, untrusted, wrong host, revoked, expired) is a `drop` with the TLS code.
 */
export function postPushMessage(message: PushMessage, agent: Agent, timeoutMs: number): Promise<PostOutcome> {
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(message.address);
    } catch {
      resolve({ kind: 'drop', reason: 'invalid address' });
      return;
    }
    if (url.protocol !== 'https:') {
      resolve({ kind: 'drop', reason: 'address is not https' });
      return;
    }
    const { headers, body } = encodePushMessage(message);
    let settled = false;
    const settle = (outcome: PostOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const req = request(url, { method: 'POST', headers, agent });
    const timer = setTimeout(() => {
      settle({ kind: 'retry', reason: 'timeout' });
      req.destroy();
    }, timeoutMs);
    req.on('information', (info) => {
      // 102 Processing is listed as success: the receiver took the message, no need to wait for more.
      if (info.statusCode === 102) {
        settle({ kind: 'delivered', status: 102 });
        req.destroy();
      }
    });
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      res.resume();
      if (SUCCESS_STATUSES.has(status)) settle({ kind: 'delivered', status });
      else if (RETRY_STATUSES.has(status)) settle({ kind: 'retry', status, reason: `HTTP ${status}` });
      else settle({ kind: 'drop', status, reason: `HTTP ${status}` });
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      const code = error.code ?? error.message;
      if (TRANSIENT.has(code)) settle({ kind: 'retry', reason: code });
      else if (UNREACHABLE.has(code)) settle({ kind: 'drop', reason: `unreachable: ${code}` });
      else settle({ kind: 'drop', reason: `tls or protocol error: ${code}` });
    });
    req.end(body);
  });
}
