/**
 * Issue 10, failure 7 and the HTTP framing findings: pipelined answers in request order (RFC 9112 §9.3.2), stray
 * bytes after a body answered after the body's own answer, many headers kept, and auth before any other check on
 * the upload paths.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startService, type ServiceHandle } from './helpers/service.ts';
import { openRaw, requestHead, statuses } from './helpers/raw-http.ts';

let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

const AUTH = { Host: 'x', Authorization: 'Bearer dev-token-alice' };

test('a create with 11 stray bytes after its 29-byte body: the 200 comes first, then the 400, then the close', async () => {
  const body = '{"name":"pipelined-file.txt"}';
  assert.equal(body.length, 29);
  const conn = await openRaw(svc.url);
  await conn.write(
    requestHead('POST', '/store/v3/files', { ...AUTH, 'Content-Type': 'application/json', 'Content-Length': 29 }) +
      body +
      'STRAYBYTES!',
  );
  const text = await conn.closed(10_000);
  assert.deepEqual(statuses(text), [200, 400], text);
  const created = JSON.parse(
    text.slice(text.indexOf('{'), text.indexOf('}\r\nHTTP') + 1 || undefined).split('HTTP/1.1')[0],
  );
  assert.equal(created.name, 'pipelined-file.txt');
  const list = await svc.api(
    'GET',
    `/store/v3/files?q=${encodeURIComponent("name = 'pipelined-file.txt'")}&fields=files(id)`,
  );
  assert.deepEqual(
    list.json().files.map((f: { id: string }) => f.id),
    [created.id],
  );
});

test('three pipelined requests are answered in order, the slow one first', async () => {
  const conn = await openRaw(svc.url);
  const make = JSON.stringify({ name: 'p1' });
  await conn.write(
    requestHead('POST', '/store/v3/files?fields=name', {
      ...AUTH,
      'Content-Type': 'application/json',
      'Content-Length': make.length,
    }) +
      make +
      requestHead('GET', '/store/v3/about?fields=kind', AUTH) +
      requestHead('GET', '/store/v3/nope', AUTH),
  );
  const text = await conn.waitFor((t) => statuses(t).length === 3, 10_000, 'three answers');
  conn.drop();
  assert.deepEqual(statuses(text), [200, 200, 404]);
  assert.ok(text.indexOf('"p1"') < text.indexOf('store#about'));
});

test('1,500 headers are all kept (the Authorization after them too)', async () => {
  const headers: Record<string, string> = { Host: 'x' };
  for (let i = 0; i < 1500; i++) headers[`X-H${i}`] = 'v';
  // Last, so a dropped tail would show as a 401.
  headers.Authorization = AUTH.Authorization;
  const conn = await openRaw(svc.url);
  await conn.write(requestHead('GET', '/store/v3/about?fields=kind', headers));
  const text = await conn.waitFor((t) => statuses(t).length === 1 && t.includes('}'), 10_000, 'the answer');
  conn.drop();
  assert.deepEqual(statuses(text), [200], text.slice(0, 300));
});

for (const path of [
  '/upload/store/v3/files?uploadType=nonsense',
  '/upload/store/v3/files?uploadType=media&fields=nope(',
  '/upload/store/v3/files',
  '/upload/store/v3/files?uploadType=media&upload_id=',
]) {
  test(`POST ${path} without a token → 401 before any other check`, async () => {
    const r = await svc.api('POST', path, { token: null, body: 'x', headers: { 'Content-Type': 'text/plain' } });
    assert.equal(r.status, 401, r.text);
  });
}

test('a session URI still needs no token', async () => {
  const start = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable', { body: { name: 's' } });
  const r = await svc.api('PUT', start.headers.location as string, { token: null, body: 'abc' });
  assert.equal(r.status, 200, r.text);
});

test('a bare CR in a batch part Content-ID is refused (400 naming it), never echoed into a header', async () => {
  const body =
    '--x\r\nContent-Type: application/http\r\nContent-ID: <a\rInjected: yes>\r\n\r\nGET /store/v3/about?fields=kind\r\n\r\n\r\n--x--';
  const r = await svc.api('POST', '/batch/store/v3', {
    headers: { 'Content-Type': 'multipart/mixed; boundary=x' },
    body,
  });
  assert.equal(r.status, 400, r.text);
  assert.match(r.json().error.message, /content-id header of part 1 holds the control character 0x0d/);
  assert.ok(!r.text.includes('Injected: yes\r\n'));
});
