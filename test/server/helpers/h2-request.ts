/**
 * One request over HTTP/2 (`node:http2`), for the suites run against `store-service --https`
 * (`STORE_TEST_HTTP2=1`, see service.ts). One session per origin, reused as a browser would, trusting the CAs the
 * services of this process created.
 */
import { connect, type ClientHttp2Session, type OutgoingHttpHeaders } from 'node:http2';
import { Readable } from 'node:stream';

const sessions = new Map<string, ClientHttp2Session>();
const trusted: string[] = [];

/** Trusts a development CA (PEM) for every later session. */
export function trustCa(pem: string): void {
  if (!trusted.includes(pem)) trusted.push(pem);
}

/** Closes the sessions to `origin` (a restarted or stopped service). */
export function forgetOrigin(origin: string): void {
  sessions.get(origin)?.destroy();
  sessions.delete(origin);
}

function sessionFor(origin: string): ClientHttp2Session {
  const open = sessions.get(origin);
  if (open && !open.closed && !open.destroyed) return open;
  const session = connect(origin, { ca: trusted });
  session.on('error', () => undefined);
  session.on('close', () => sessions.get(origin) === session && sessions.delete(origin));
  // An idle session must not keep the test process alive.
  session.unref();
  sessions.set(origin, session);
  return session;
}

/** The raw answer: status, headers without pseudo-headers (lower-case names), body bytes. */
export interface H2Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** Sends one request; the body is bytes, or a stream (its own `content-length` header, if any, is kept). */
export function h2Request(
  method: string,
  url: string,
  headers: Record<string, string>,
  body: string | Uint8Array | AsyncIterable<Uint8Array> | undefined,
): Promise<H2Answer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const out: OutgoingHttpHeaders = { ':method': method, ':path': target.pathname + target.search };
    for (const [name, value] of Object.entries(headers)) {
      if (name.toLowerCase() === 'host') out[':authority'] = value;
      else out[name.toLowerCase()] = value;
    }
    // As browsers and Node's HTTP/1.1 client do for a body of known size.
    if ((typeof body === 'string' || body instanceof Uint8Array) && out['content-length'] === undefined)
      out['content-length'] = Buffer.byteLength(body);
    const stream = sessionFor(target.origin).request(out, { endStream: body === undefined });
    let status = 0;
    let answerHeaders: H2Answer['headers'] = {};
    const chunks: Buffer[] = [];
    stream.on('response', (h) => {
      status = Number(h[':status']);
      answerHeaders = Object.fromEntries(Object.entries(h).filter(([k]) => !k.startsWith(':')));
    });
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve({ status, headers: answerHeaders, body: Buffer.concat(chunks) }));
    stream.on('error', reject);
    if (body === undefined) return;
    if (typeof body === 'string' || body instanceof Uint8Array) stream.end(body);
    else Readable.from(body).on('error', reject).pipe(stream);
  });
}
