/**
 * What a single node (SQLite) keeps across a restart: its files, never its run-time settings — scheduled faults,
 * tokens issued at run time and a storage quota end with the process (`server/store/run-time-settings.ts`) — and the
 * schema it migrated to declares a type for every column (a typeless SQLite column compares text and numbers apart).
 */
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { type ServiceHandle, startService } from './helpers/service.ts';

let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

describe('a single node restarted', () => {
  it('forgets its faults, run-time tokens and storage quota, and keeps its files', async () => {
    const fault = await svc.api('POST', '/__admin/faults', {
      token: null,
      body: { match: { method: 'GET', pathPrefix: '/store/v3/about' }, action: { type: 'status', status: 503 } },
    });
    assert.equal(fault.status, 200, fault.text);
    const token = await svc.api('POST', '/__admin/tokens', {
      token: null,
      body: { token: 'tok-erin', user: 'erin@example.com' },
    });
    assert.equal(token.status, 201, token.text);
    const quota = await svc.api('PUT', '/__admin/storage-quota', { token: null, body: { limit: 5 } });
    assert.equal(quota.status, 200, quota.text);
    const made = await svc.api('POST', '/store/v3/files?fields=id', { body: { name: 'kept.txt' } });
    assert.equal(made.status, 200, made.text);
    // Before the restart each setting is in force.
    assert.equal((await svc.api('GET', '/store/v3/about?fields=user', { token: 'tok-erin' })).status, 503);

    await svc.restart();

    assert.deepEqual((await svc.api('GET', '/__admin/faults', { token: null })).json(), { faults: [] });
    assert.deepEqual((await svc.api('GET', '/__admin/storage-quota', { token: null })).json(), { limit: null });
    const about = await svc.api('GET', '/store/v3/about?fields=user', { token: 'tok-erin' });
    assert.equal(about.status, 401, about.text);
    const kept = await svc.api('GET', `/store/v3/files/${(made.json() as { id: string }).id}?fields=name`);
    assert.deepEqual(kept.json(), { name: 'kept.txt' });
  });

  it('drops the bytes of a session it has no row for, and keeps an open session’s', async () => {
    const start = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable', {
      body: { name: 'open-across-restart.bin' },
      headers: { 'X-Upload-Content-Length': String(2 * 256 * 1024) },
    });
    assert.equal(start.status, 200, start.text);
    const location = String(start.headers.location);
    const first = await svc.api('PUT', location, {
      body: Buffer.alloc(256 * 1024, 9),
      headers: { 'Content-Range': `bytes 0-${256 * 1024 - 1}/${2 * 256 * 1024}` },
    });
    assert.equal(first.status, 308, first.text);
    // Bytes no session row names (a session that ended while the node was down): nothing can ever reach them.
    const stray = join(svc.dataDir, 'sessions', 'no-such-session.part');
    writeFileSync(stray, 'left behind');

    await svc.restart();

    assert.equal(existsSync(stray), false, 'the stray part file is deleted at start');
    const status = await svc.api('PUT', location, { headers: { 'Content-Range': `bytes */${2 * 256 * 1024}` } });
    assert.equal(status.status, 308, status.text);
    assert.equal(status.headers.range, `bytes=0-${256 * 1024 - 1}`);
  });

  it('deletes stored content no file names, and keeps the content of each file', async () => {
    const made = await svc.api('POST', '/upload/store/v3/files?uploadType=media&fields=id', {
      body: 'the bytes of a kept file\n',
      headers: { 'Content-Type': 'text/plain' },
    });
    assert.equal(made.status, 200, made.text);
    const { id } = made.json() as { id: string };
    // Content no file row names (a crash between writing it and committing its file): no request can reach it.
    const stray = join(svc.dataDir, 'content', 'c-left-by-a-crash');
    writeFileSync(stray, 'no file names these bytes');

    await svc.restart();

    assert.equal(existsSync(stray), false, 'the stray content is deleted at start');
    const media = await svc.api('GET', `/store/v3/files/${id}?alt=media`);
    assert.equal(media.status, 200, media.text);
    assert.equal(media.text, 'the bytes of a kept file\n');
  });

  it('its migrated schema declares a type for every column', async () => {
    await svc.kill();
    const db = new Database(join(svc.dataDir, 'store.db'), { readonly: true });
    try {
      const tables = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        .all() as {
        name: string;
      }[];
      assert.ok(tables.length > 0, 'the database has tables');
      const typeless = tables.flatMap(({ name }) =>
        (db.prepare(`PRAGMA table_info(${JSON.stringify(name)})`).all() as { name: string; type: string }[])
          .filter((c) => c.type.trim() === '')
          .map((c) => `${name}.${c.name}`),
      );
      assert.deepEqual(typeless, []);
      const notBefore = (db.prepare('PRAGMA table_info(push_outbox)').all() as { name: string; type: string }[]).find(
        (c) => c.name === 'not_before',
      );
      assert.equal(notBefore?.type, 'INTEGER');
    } finally {
      db.close();
      await svc.restart();
    }
  });
});
