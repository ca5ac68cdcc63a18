// `store-service --https`: HTTP/2 and HTTP/1.1 on one port (ALPN), a development CA kept in the data directory, no
// connection-specific header in any HTTP/2 answer, and an admin cut that resets one stream, not the connection.
// (The suites themselves run over HTTP/2 with STORE_TEST_HTTP2=1: scripts/test-http2.sh.)
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { connect, type ClientHttp2Session } from 'node:http2';
import { join } from 'node:path';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { type ServiceHandle, startService } from './helpers/service.ts';
import { ensureDevCertificates } from '../../server/http/dev-certificates.ts';

let svc: ServiceHandle;
let ca: string;
let session: ClientHttp2Session;
const AUTH = { authorization: 'Bearer dev-token-alice' };

before(async () => {
  svc = await startService({ args: ['--https'] });
  ca = readFileSync(join(svc.dataDir, 'tls', 'ca.pem'), 'utf8');
  session = connect(svc.url, { ca });
});
after(async () => {
  session.destroy();
  await svc.stop();
});

type Answer = { status: number; headers: Record<string, unknown>; body: Buffer; error?: Error };

function h2(headers: Record<string, string>, body?: Buffer | string): Promise<Answer> {
  return new Promise((resolve) => {
    const stream = session.request({ ...AUTH, ...headers }, { endStream: body === undefined });
    let answer: Answer = { status: 0, headers: {}, body: Buffer.alloc(0) };
    const chunks: Buffer[] = [];
    stream.on('response', (h) => (answer = { ...answer, status: Number(h[':status']), headers: h }));
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve({ ...answer, body: Buffer.concat(chunks) }));
    stream.on('error', (error: Error) => resolve({ ...answer, error }));
    if (body !== undefined) stream.end(body);
  });
}

const CONNECTION_SPECIFIC = ['connection', 'transfer-encoding', 'keep-alive', 'upgrade', 'proxy-connection'];

test('the CA is kept in the data directory and named on start; HTTP/1.1 is served on the same port', async () => {
  const answer = await new Promise<{ status: number; alpn: string | false | null }>((resolve, reject) => {
    const req = httpsRequest(
      `${svc.url}/store/v3/about?fields=user`,
      { ca, headers: AUTH, ALPNProtocols: ['http/1.1'] } as RequestOptions,
      (res) => {
        // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment -- this connection is TLS (the test asked for h2 over TLS).
        const alpn = (res.socket as TLSSocket).alpnProtocol;
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, alpn }));
      },
    );
    req.on('error', reject);
    req.end();
  });
  assert.deepEqual(answer, { status: 200, alpn: 'http/1.1' });
  assert.equal(session.alpnProtocol, 'h2');
});

test('uploads, session URIs, downloads (plain and gzipped) and errors carry no connection-specific header over HTTP/2', async () => {
  const bytes = Buffer.alloc(600_000, 7);
  const start = await h2(
    {
      ':method': 'POST',
      ':path': '/upload/store/v3/files?uploadType=resumable',
      'content-type': 'application/json',
      'x-upload-content-length': String(bytes.length),
    },
    JSON.stringify({ name: 'h2.bin' }),
  );
  assert.equal(start.status, 200);
  const location = new URL(String(start.headers.location));
  assert.equal(location.origin, svc.url);
  const put = await h2(
    { ':method': 'PUT', ':path': location.pathname + location.search, 'content-length': String(bytes.length) },
    bytes,
  );
  assert.equal(put.status, 200);
  const id = JSON.parse(put.body.toString()).id as string;
  const plain = await h2({ ':method': 'GET', ':path': `/store/v3/files/${id}?alt=media` });
  assert.deepEqual(plain.body, bytes);
  const gzipped = await h2({
    ':method': 'GET',
    ':path': '/store/v3/files?fields=files(id)',
    'accept-encoding': 'gzip',
    'user-agent': 'test (gzip)',
  });
  assert.equal(gzipped.headers['content-encoding'], 'gzip');
  const missing = await h2({ ':method': 'GET', ':path': '/store/v3/files/nothing' });
  assert.equal(missing.status, 404);
  const head = await h2({ ':method': 'HEAD', ':path': `/store/v3/files/${id}?alt=media` });
  assert.equal(head.headers['content-length'], String(bytes.length));
  for (const answer of [start, put, plain, gzipped, missing, head]) {
    for (const name of CONNECTION_SPECIFIC) assert.equal(answer.headers[name], undefined, name);
  }
});

test('an admin cut resets its own stream (RST_STREAM); another request on the same connection completes', async () => {
  const add = await h2(
    { ':method': 'POST', ':path': '/__admin/faults', 'content-type': 'application/json' },
    JSON.stringify({ match: { uploadType: 'media' }, action: { type: 'cut', afterBytes: 1000 }, times: 1 }),
  );
  assert.equal(add.status, 200);
  const cut = h2(
    {
      ':method': 'POST',
      ':path': '/upload/store/v3/files?uploadType=media',
      'content-type': 'application/octet-stream',
    },
    Buffer.alloc(200_000, 1),
  );
  const beside = h2({ ':method': 'GET', ':path': '/store/v3/about?fields=user' });
  const [cutAnswer, besideAnswer] = await Promise.all([cut, beside]);
  assert.equal((cutAnswer.error as NodeJS.ErrnoException | undefined)?.code, 'ERR_HTTP2_STREAM_ERROR');
  assert.match(String(cutAnswer.error?.message), /NGHTTP2_INTERNAL_ERROR/);
  assert.equal(besideAnswer.status, 200);
  assert.equal(session.destroyed, false);
  assert.equal((await h2({ ':method': 'GET', ':path': '/store/v3/about?fields=user' })).status, 200);
});

test('the tuned flow-control windows reach the client: 8 MiB a stream (SETTINGS), 32 MiB the connection (WINDOW_UPDATE)', async () => {
  // server/http/https-server.ts tunes both (Node's default is 64 KiB each, one round trip of a fast link's upload).
  const MiB = 1024 * 1024;
  const fresh = connect(svc.url, { ca });
  try {
    const answer = await new Promise<number>((resolve, reject) => {
      const stream = fresh.request({ ...AUTH, ':method': 'GET', ':path': '/store/v3/about?fields=user' });
      stream.on('response', (h) => resolve(Number(h[':status'])));
      stream.on('error', reject);
      stream.resume();
    });
    assert.equal(answer, 200);
    // Frames arrive in order: the server's SETTINGS and its WINDOW_UPDATE came before this answer's HEADERS.
    assert.equal(fresh.remoteSettings.initialWindowSize, 8 * MiB);
    assert.equal(fresh.state.remoteWindowSize, 32 * MiB, 'this client sent no DATA: the whole connection window');
  } finally {
    fresh.destroy();
  }
});

test('the header limit counts 32 octets a field, as HTTP/2 measures a header list (RFC 9113 §6.5.2)', async () => {
  // 100 fields of 6 + 140 octets: 14,600 by their text alone, 17,800 with the 32 each; the limit is 16,384.
  const many = Object.fromEntries(
    Array.from({ length: 100 }, (_, i) => [`x-h${String(i).padStart(3, '0')}`, 'v'.repeat(140)]),
  );
  const over = await h2({ ':method': 'GET', ':path': '/store/v3/about', ...many });
  assert.equal(over.status, 431, over.error?.message);
  assert.match(over.body.toString(), /larger than the limit of 16384 bytes/);
  const fewer = Object.fromEntries(Object.entries(many).slice(0, 80));
  const under = await h2({ ':method': 'GET', ':path': '/store/v3/about', ...fewer });
  assert.equal(under.status, 200, under.error?.message);
});

test('the 431 over HTTP/2 is JSON that a page on another origin may read', async () => {
  const many = Object.fromEntries(
    Array.from({ length: 100 }, (_, i) => [`x-h${String(i).padStart(3, '0')}`, 'v'.repeat(140)]),
  );
  const over = await h2({ ':method': 'GET', ':path': '/store/v3/about', origin: 'https://app.example', ...many });
  assert.equal(over.status, 431, over.error?.message);
  assert.match(String(over.headers['content-type']), /^application\/json/);
  assert.equal(over.headers['access-control-allow-origin'], 'https://app.example');
  const body = JSON.parse(over.body.toString()) as { error: { errors: { reason: string }[] } };
  assert.equal(body.error.errors[0]?.reason, 'headersTooLarge');
});

test('over TLS, a request without a Host header (HTTP/1.0) gets a session URI on the address the service listens on', async () => {
  const { port } = new URL(svc.url);
  const body = JSON.stringify({ name: 'no-host-tls.bin' });
  const text = await new Promise<string>((resolve, reject) => {
    const socket = tlsConnect({
      host: '127.0.0.1',
      port: Number(port),
      ca,
      servername: 'localhost',
      ALPNProtocols: ['http/1.1'],
    });
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
    socket.setTimeout(20_000, () => socket.destroy(new Error('no answer within 20 s')));
    socket.write(
      `POST /upload/store/v3/files?uploadType=resumable HTTP/1.0\r\nAuthorization: ${AUTH.authorization}\r\n` +
        `Content-Type: application/json\r\nX-Upload-Content-Length: 10\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
  });
  assert.match(text, /^HTTP\/1\.[01] 200 /);
  const location = /\r\nlocation: ([^\r]*)\r\n/i.exec(text)?.[1] ?? '';
  assert.ok(location.startsWith(`https://127.0.0.1:${port}/upload/store/v3/files?`), location);
});

test('over HTTP/2, a session URI is on the :authority the request named', async () => {
  const { port } = new URL(svc.url);
  const start = await h2(
    {
      ':method': 'POST',
      ':authority': `localhost:${port}`,
      ':path': '/upload/store/v3/files?uploadType=resumable',
      'content-type': 'application/json',
      'x-upload-content-length': '10',
    },
    JSON.stringify({ name: 'authority.bin' }),
  );
  assert.equal(start.status, 200, start.body.toString());
  assert.equal(new URL(String(start.headers.location)).origin, `https://localhost:${port}`);
});

test('over HTTP/2, a session URI keeps the :scheme the request named (an http URI asked over TLS, RFC 8164)', async () => {
  const { port } = new URL(svc.url);
  const start = await h2(
    {
      ':method': 'POST',
      ':scheme': 'http',
      ':authority': `localhost:${port}`,
      ':path': '/upload/store/v3/files?uploadType=resumable',
      'content-type': 'application/json',
      'x-upload-content-length': '10',
    },
    JSON.stringify({ name: 'scheme.bin' }),
  );
  assert.equal(start.status, 200, start.body.toString());
  assert.equal(new URL(String(start.headers.location)).origin, `http://localhost:${port}`);
});

test('over TLS, an HTTP/1.1 request gets an https session URI on the host it named', async () => {
  const { port } = new URL(svc.url);
  const body = JSON.stringify({ name: 'host-tls.bin' });
  const text = await new Promise<string>((resolve, reject) => {
    const socket = tlsConnect({
      host: '127.0.0.1',
      port: Number(port),
      ca,
      servername: 'localhost',
      ALPNProtocols: ['http/1.1'],
    });
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
    socket.setTimeout(20_000, () => socket.destroy(new Error('no answer within 20 s')));
    socket.write(
      `POST /upload/store/v3/files?uploadType=resumable HTTP/1.1\r\nHost: localhost:${port}\r\n` +
        `Authorization: ${AUTH.authorization}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
        `X-Upload-Content-Length: 10\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
  });
  assert.match(text, /^HTTP\/1\.1 200 /);
  const location = /\r\nlocation: ([^\r]*)\r\n/i.exec(text)?.[1] ?? '';
  assert.ok(location.startsWith(`https://localhost:${port}/upload/store/v3/files?`), location);
});

test('a restart keeps the CA', async () => {
  await svc.restart();
  assert.equal(readFileSync(join(svc.dataDir, 'tls', 'ca.pem'), 'utf8'), ca);
  const again = connect(svc.url, { ca });
  try {
    const ok = await new Promise<number>((resolve, reject) => {
      const s = again.request({ ...AUTH, ':path': '/store/v3/about?fields=user' });
      s.on('response', (h) => resolve(Number(h[':status'])));
      s.on('error', reject);
      s.resume();
    });
    assert.equal(ok, 200);
  } finally {
    again.destroy();
  }
});

test('a certificate folder holding the CA without its key (half copied) gets a new CA, not an error', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dev-certs-'));
  try {
    const first = await ensureDevCertificates(dir);
    assert.equal(first.createdCa, true);
    const firstCa = readFileSync(first.caPath, 'utf8');
    rmSync(join(dir, 'ca-key.pem'));
    const again = await ensureDevCertificates(dir);
    assert.equal(again.createdCa, true, 'a CA without its key cannot sign: a new one is made');
    assert.notEqual(readFileSync(again.caPath, 'utf8'), firstCa);
    // The folder is whole again: the next start keeps what is there.
    assert.equal((await ensureDevCertificates(dir)).createdCa, false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
