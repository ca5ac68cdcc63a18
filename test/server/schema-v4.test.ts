/**
 * Schema version 4 (sessions keep their owner's permission ID, `users` maps addresses to IDs) on a data folder of
 * version 3 with a resumable session open: the service migrates it at start, and the session commits as before,
 * owned by its user under the ID derived from the address (what a version-3 session implied).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { startService } from './helpers/service.ts';
import { permissionIdFor } from '../../server/store/ids.ts';

test('a version-3 folder with an open session migrates to 4, and the session commits with its owner', async () => {
  const svc = await startService();
  try {
    // A first chunk of 256 KiB (the protocol's unit), then the rest after the migration.
    const bytes = Buffer.concat([
      Buffer.alloc(256 * 1024, 7),
      Buffer.from('started under schema 3, finished under 4\n'),
    ]);
    const cut = 256 * 1024;
    const start = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable', {
      headers: { 'x-upload-content-length': String(bytes.length) },
      body: { name: 'across-versions.txt' },
    });
    assert.equal(start.status, 200, start.text);
    const first = await svc.api('PUT', String(start.headers.location), {
      headers: { 'content-range': `bytes 0-${cut - 1}/${bytes.length}` },
      body: bytes.subarray(0, cut),
    });
    assert.equal(first.status, 308, first.text);
    await svc.kill();

    // Back to version 3, as the service before this change left its folders (version 5's rename undone too; no
    // file holds content yet).
    const db = new Database(join(svc.dataDir, 'store.db'));
    db.exec('ALTER TABLE files RENAME COLUMN content_key TO blob');
    db.exec('ALTER TABLE sessions DROP COLUMN permission_id; DROP TABLE users');
    db.prepare("UPDATE meta SET value = '3' WHERE key = 'schemaVersion'").run();
    db.close();

    await svc.restart();
    const done = await svc.api('PUT', `${String(start.headers.location)}&fields=id,owners,permissions`, {
      headers: { 'content-range': `bytes ${cut}-${bytes.length - 1}/${bytes.length}` },
      body: bytes.subarray(cut),
    });
    assert.equal(done.status, 200, done.text);
    const file = done.json<{
      owners: { emailAddress: string; permissionId: string }[];
      permissions: { id: string }[];
    }>();
    const derived = permissionIdFor('user', 'alice@example.com');
    assert.deepEqual(
      file.owners.map((o) => [o.emailAddress, o.permissionId]),
      [['alice@example.com', derived]],
    );
    assert.deepEqual(
      file.permissions.map((p) => p.id),
      [derived],
    );
    const after = new Database(join(svc.dataDir, 'store.db'), { readonly: true });
    const version = after.prepare("SELECT value FROM meta WHERE key = 'schemaVersion'").get() as { value: string };
    after.close();
    assert.equal(version.value, '5');
  } finally {
    await svc.stop();
  }
});
