/**
 * The `--admin` routes a test drives the service with (`server/handlers/admin.ts`, server/README.md "Admin"): the
 * clock moves forward only, by a whole number of milliseconds; the storage quota is a byte count or null; each
 * refusal says what to send; the open sessions can be listed for one user; the memory figures carry the database's
 * statement count.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ServiceHandle, startService } from './helpers/service.ts';

let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

const admin = (method: string, path: string, body?: unknown) =>
  svc.api(method, `/__admin/${path}`, { token: null, ...(body === undefined ? {} : { body: body as object }) });

describe('the admin routes', () => {
  it('move the clock forward by what is asked, and refuse anything but a number ≥ 0', async () => {
    const start = (await admin('GET', 'clock')).json() as { now: number; offsetMs: number };
    assert.equal(start.offsetMs, 0);
    const moved = await admin('POST', 'clock', { advanceMs: 60_000 });
    assert.equal(moved.status, 200, moved.text);
    const after1 = moved.json() as { now: number; offsetMs: number };
    assert.equal(after1.offsetMs, 60_000);
    assert.ok(after1.now >= start.now + 60_000, `${after1.now} < ${start.now} + 60000`);
    assert.equal(((await admin('POST', 'clock', { advanceMs: 0 })).json() as { offsetMs: number }).offsetMs, 60_000);
    for (const body of [{ advanceMs: -1 }, { advanceMs: '5' }, {}, [5]]) {
      const r = await admin('POST', 'clock', body);
      assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
      assert.equal((r.json() as { error: { message: string } }).error.message, 'Send {"advanceMs": N} with N ≥ 0.');
    }
    assert.equal(((await admin('GET', 'clock')).json() as { offsetMs: number }).offsetMs, 60_000);
  });

  it('set the storage quota to a byte count or to none, and refuse anything else', async () => {
    assert.deepEqual((await admin('GET', 'storage-quota')).json(), { limit: null });
    assert.deepEqual((await admin('PUT', 'storage-quota', { limit: 0 })).json(), { limit: 0 });
    assert.deepEqual((await admin('GET', 'storage-quota')).json(), { limit: 0 });
    assert.deepEqual((await admin('PUT', 'storage-quota', { limit: 5000 })).json(), { limit: 5000 });
    for (const body of [{ limit: -1 }, { limit: 1.5 }, { limit: '5' }, {}]) {
      const r = await admin('PUT', 'storage-quota', body);
      assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
      assert.equal(
        (r.json() as { error: { message: string } }).error.message,
        'Send {"limit": N} with N ≥ 0 bytes, or {"limit": null} for no limit.',
      );
    }
    assert.deepEqual((await admin('GET', 'storage-quota')).json(), { limit: 5000 });
    assert.deepEqual((await admin('PUT', 'storage-quota', { limit: null })).json(), { limit: null });
  });

  it('refuse a fault body that is JSON null as a 400 saying each fault is an object, and add nothing', async () => {
    const r = await svc.api('POST', '/__admin/faults', {
      token: null,
      headers: { 'Content-Type': 'application/json' },
      body: 'null',
    });
    assert.equal(r.status, 400, r.text);
    assert.match((r.json() as { error: { message: string } }).error.message, /each fault must be an object/);
    assert.deepEqual((await admin('GET', 'faults')).json(), { faults: [] });
  });

  it('list the open sessions of one user, a session without a name as null', async () => {
    const alice = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable', { body: { name: 'a.bin' } });
    const bob = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable', { token: 'dev-token-bob' });
    assert.equal(alice.status, 200, alice.text);
    assert.equal(bob.status, 200, bob.text);
    const listed = (who: string) =>
      admin('GET', `sessions?user=${encodeURIComponent(who)}`).then(
        (r) => (r.json() as { sessions: { user: string; name: string | null }[] }).sessions,
      );
    assert.deepEqual(
      (await listed('bob@example.com')).map((s) => [s.user, s.name]),
      [['bob@example.com', null]],
    );
    assert.deepEqual(
      (await listed('alice@example.com')).map((s) => [s.user, s.name]),
      [['alice@example.com', 'a.bin']],
    );
    const all = (await admin('GET', 'sessions')).json() as { sessions: unknown[] };
    assert.equal(all.sessions.length, 2);
  });

  it('tell the memory of the process and the statements it sent its database', async () => {
    const r = (await admin('GET', 'memory')).json() as { rss: number; heapUsed: number; databaseStatements: number };
    assert.ok(r.rss > 0 && r.heapUsed > 0, JSON.stringify(r));
    assert.ok(Number.isInteger(r.databaseStatements) && r.databaseStatements > 0, JSON.stringify(r));
  });
});
