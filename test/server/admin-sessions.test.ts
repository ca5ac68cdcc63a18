/**
 * `GET /__admin/sessions`: the resumable sessions still open, for tests that check what a cancel or a finished upload
 * left behind. A started session is listed (by its user, not another's), with the total once a request gave it; a
 * completed, cancelled or expired one is not.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type ServiceHandle, startService } from './helpers/service.ts';

let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

async function start(name: string, token?: string): Promise<{ uri: string; id: string }> {
  const r = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable', { body: { name }, token });
  assert.equal(r.status, 200, r.text);
  return { uri: r.headers.location as string, id: r.headers['x-svc-upload-id'] as string };
}

async function open(user?: string): Promise<{ id: string; user: string; name: string | null }[]> {
  const r = await svc.api('GET', `/__admin/sessions${user ? `?user=${encodeURIComponent(user)}` : ''}`, {
    token: null,
  });
  assert.equal(r.status, 200, r.text);
  return r.json().sessions;
}

test('lists open sessions by user; completed, cancelled and expired ones are gone', async () => {
  const a = await start('a.bin');
  const b = await start('b.bin');
  const c = await start('c.bin');
  const other = await start('other.bin', 'dev-token-bob');
  assert.deepEqual(
    (await open('alice@example.com')).map((s) => [s.id, s.name]),
    [
      [a.id, 'a.bin'],
      [b.id, 'b.bin'],
      [c.id, 'c.bin'],
    ],
  );
  assert.deepEqual(
    (await open()).map((s) => s.id),
    [a.id, b.id, c.id, other.id],
  );

  const done = await svc.api('PUT', a.uri, { token: null, body: Buffer.from('abc') });
  assert.equal(done.status, 200, done.text);
  const cancelled = await svc.api('DELETE', b.uri, { token: null });
  assert.equal(cancelled.status, 499, cancelled.text);
  assert.deepEqual(
    (await open('alice@example.com')).map((s) => s.id),
    [c.id],
  );

  const clock = await svc.api('POST', '/__admin/clock', { token: null, body: { advanceMs: 8 * 24 * 3600 * 1000 } });
  assert.equal(clock.status, 200, clock.text);
  assert.deepEqual(await open(), []);
});

test('each session is listed with the total a request of it gave, null while none has', async () => {
  const sized = await start('sized.bin');
  const told = await svc.api('PUT', sized.uri, {
    token: null,
    headers: { 'Content-Range': 'bytes 0-262143/1048576' },
    body: Buffer.alloc(262144, 1),
  });
  assert.equal(told.status, 308, told.text);
  const unsized = await start('unsized.bin');
  const r = await svc.api('GET', '/__admin/sessions?user=alice%40example.com', { token: null });
  const sessions = (r.json() as { sessions: { id: string; name: string; total: number | null }[] }).sessions;
  assert.deepEqual(
    sessions.map((s) => [s.id, s.name, s.total]),
    [
      [sized.id, 'sized.bin', 1048576],
      [unsized.id, 'unsized.bin', null],
    ],
  );
});
