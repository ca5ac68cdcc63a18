/**
 * The address the service listens on, as it names it: on an IPv6 host it prints its URL with the address in
 * brackets, and an HTTP/1.0 request that names no `Host` gets a session `Location` at that listening address
 * (`server/index.ts`, `server/http/node-adapter.ts`'s fallback base).
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import { type ServiceHandle, startService } from './helpers/service.ts';

let svc: ServiceHandle;
// A hook has no per-test limit: a start that never gets ready fails here instead of hanging the file.
before(
  async () => {
    svc = await startService({ args: ['--host', '::1'] });
  },
  { timeout: 120_000 },
);
after(() => svc?.stop());

test('on ::1 the service names its URL with the address in brackets, and answers there', async () => {
  assert.match(svc.url, /^https?:\/\/\[::1\]:\d+$/);
  const r = await svc.api('GET', '/store/v3/about?fields=user(emailAddress)');
  assert.equal(r.status, 200, r.text);
});

test('an HTTP/1.0 request without Host gets its session URI at the address the service listens on', async (t) => {
  if (svc.url.startsWith('https:')) return t.skip('raw HTTP/1.0 is for the plain-HTTP run');
  const body = '{"name":"no-host.bin"}';
  const { port } = new URL(svc.url);
  // The answer, read until the service closes the connection (HTTP/1.0 without keep-alive).
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = connect({ host: '::1', port: Number(port) });
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.write(
      'POST /upload/store/v3/files?uploadType=resumable HTTP/1.0\r\n' +
        'Authorization: Bearer dev-token-alice\r\n' +
        'Content-Type: application/json\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  });
  assert.match(answer, /^HTTP\/1\.1 200 /);
  const location = /\r\nlocation: ([^\r]+)\r\n/i.exec(answer)?.[1];
  assert.ok(location, answer);
  assert.ok(location.startsWith(`${svc.url}/upload/store/v3/files?`), location);
  // The URI works: a status query on it finds the session.
  const query = await svc.api('PUT', location, { headers: { 'Content-Range': 'bytes */*', 'Content-Length': '0' } });
  assert.equal(query.status, 308, query.text);
});
