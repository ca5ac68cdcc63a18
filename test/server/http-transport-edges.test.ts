/**
 * Edges of the HTTP transport (`server/http/`) the conformance suites pass over: the connection limit is kept per
 * client address, a repeated Content-Range is refused, JSON bodies are read whatever their framing, an
 * oversized JSON body is refused before it is sent, and an early answer lingers until the client's body has ended. Each check failed once against a planted mutant of the line it
 * guards (issue 39).
 */
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { openRaw, statuses } from './helpers/raw-http.ts';
import { type ServiceHandle, startService } from './helpers/service.ts';

const LIMIT = 3;
let svc: ServiceHandle;
before(async () => {
  svc = await startService({ config: { maxConnectionsPerClient: LIMIT } });
});
after(() => svc.stop());

/** A raw connection from a chosen loopback address (all of 127/8 reaches the service on Linux). */
function connectFrom(localAddress: string): Promise<Socket> {
  const { hostname, port } = new URL(svc.url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), localAddress });
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Everything the server sends on `socket` until it closes it (or `timeoutMs`). */
function answerOf(socket: Socket, timeoutMs = 10_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`no close within ${timeoutMs} ms; got: ${text}`)), timeoutMs);
    socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(text);
    });
  });
}

describe('the connection limit is per client address', () => {
  it(`${LIMIT} held connections from one address leave another address served, and the next from the first refused`, async () => {
    const held = await Promise.all(Array.from({ length: LIMIT }, () => connectFrom('127.0.0.2')));
    // A slow request head each: open and busy, never answered while held.
    held.forEach((s) => s.write('GET /store/v3/about HTTP/1.1\r\n'));
    try {
      const other = await connectFrom('127.0.0.3');
      const answer = answerOf(other);
      other.write(
        'GET /store/v3/about HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer dev-token-alice\r\nConnection: close\r\n\r\n',
      );
      assert.deepEqual(statuses(await answer), [200]);
      const over = await connectFrom('127.0.0.2');
      const refused = await answerOf(over);
      assert.deepEqual(statuses(refused), [503]);
      assert.match(refused, /Too many connections from this address \(the limit is 3\)/);
    } finally {
      held.forEach((s) => s.destroy());
    }
  });
});

describe('request headers and bodies', () => {
  it('two different Content-Range headers on a session PUT are a plain-text 400 naming the header', async () => {
    const start = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable', {
      body: { name: 'twice.bin' },
    });
    assert.equal(start.status, 200, start.text);
    const path = new URL(start.headers.location as string).pathname + new URL(start.headers.location as string).search;
    const conn = await openRaw(svc.url);
    await conn.write(
      `PUT ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Range: bytes 0-0/1\r\n` +
        `Content-Range: bytes 0-0/2\r\nConnection: close\r\n\r\nx`,
    );
    const text = await conn.closed();
    assert.deepEqual(statuses(text), [400]);
    assert.match(text, /The content-range header was sent 2 times with different values; send it once\./);
    // Plain text, as the session's other Content-Range errors (supplement §1).
    assert.match(text, /\r\ncontent-type: text\/plain/i);
  });

  it('a JSON body whose Content-Length is over the cap is a 413 before a byte of it is sent', async () => {
    const conn = await openRaw(svc.url);
    await conn.write(
      'POST /store/v3/files HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer dev-token-alice\r\n' +
        `Content-Type: application/json\r\nContent-Length: ${64 * 1024 * 1024}\r\n\r\n`,
    );
    // The answer must come while the body is still unsent: a reader that waited for it would wait out the idle timeout.
    const text = await conn.waitFor((t) => /\r\n\r\n[\s\S]*\}/.test(t), 20_000, 'an answer before the body');
    assert.deepEqual(statuses(text), [413]);
    assert.match(text, /The request body is larger than the limit of \d+ bytes for this endpoint\./);
    conn.drop();
  });

  it('a JSON body is read whether it comes with a Content-Length or chunked', async () => {
    const made = await svc.api('POST', '/store/v3/files', { body: { name: 'a.txt' } });
    assert.equal(made.status, 200, made.text);
    const id = made.json<{ id: string }>().id;
    const sized = await svc.api('PATCH', `/store/v3/files/${id}`, { body: { name: 'sized.txt' } });
    assert.equal(sized.status, 200, sized.text);
    assert.equal(sized.json<{ name: string }>().name, 'sized.txt');
    const chunked = await svc.api('PATCH', `/store/v3/files/${id}`, {
      headers: { 'Content-Type': 'application/json' },
      body: Readable.from([Buffer.from('{"name":'), Buffer.from('"chunked.txt"}')]),
    });
    assert.equal(chunked.status, 200, chunked.text);
    assert.equal(chunked.json<{ name: string }>().name, 'chunked.txt');
  });
});

describe('an early answer to a request whose body is still coming', () => {
  it('reaches a client that sends its whole body before it reads', async () => {
    const { hostname, port } = new URL(svc.url);
    const socket = connect({ host: hostname, port: Number(port) });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    // Not reading yet: the answer waits in this side's buffer, as it does for a client busy sending.
    socket.pause();
    const size = 4 * 1024 * 1024;
    const sent = await new Promise<boolean>((resolve) => {
      socket.once('error', () => resolve(false));
      socket.write(
        `POST /store/v3/files HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`,
      );
      socket.write(Buffer.alloc(size, 0x20), (e) => resolve(!e));
    });
    assert.ok(sent, 'the whole body was sent: the service read (and dropped) it instead of closing on it');
    const answer = answerOf(socket);
    socket.resume();
    assert.deepEqual(statuses(await answer), [401]);
  });
});
