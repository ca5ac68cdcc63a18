/**
 * The file store (`server/store/files.ts`) over a real SQLite database, driven the way callers other than the HTTP
 * handlers may: a patch that names no parents, what an update's event says changed when a field is sent unchanged,
 * a folder tree deleted with a file in two of its folders, a grant to anyone with the link; and the file resource of
 * a row whose owner has no permission row (`server/store/file-resource.ts`).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { principalFor } from '../../server/access.ts';
import { createClock } from '../../server/clock.ts';
import { type FileEvent, FileEvents } from '../../server/events.ts';
import { openSqliteFile } from '../../server/metadata/sqlite-metadata.ts';
import { fileResource } from '../../server/store/file-resource.ts';
import { FileStore } from '../../server/store/files.ts';
import { permissionIdFor } from '../../server/store/ids.ts';
import { StorageQuota } from '../../server/store/storage-quota.ts';
import { FOLDER_MIME } from '../../src/protocol/native.ts';

const alice = principalFor('alice@example.com', 'test-client');

async function setUp() {
  const db = await openSqliteFile(':memory:');
  const events = new FileEvents();
  const heard: FileEvent[] = [];
  events.on((e) => void heard.push(e));
  const files = new FileStore(db, createClock(), events, new StorageQuota(db, undefined), () => undefined);
  return { db, files, heard };
}

test('a patch that names no parents keeps the parents', async () => {
  const { db, files } = await setUp();
  try {
    const folder = await files.create({ name: 'folder', mimeType: FOLDER_MIME, parents: [] }, alice);
    const file = await files.create({ name: 'a.txt', mimeType: 'text/plain', parents: [folder.id] }, alice);
    const trashed = await files.update(file.id, { trashed: true }, alice);
    assert.deepEqual(trashed.parents, [folder.id]);
    assert.equal(trashed.trashed, true);
  } finally {
    await db.close();
  }
});

test("an update's event names properties only when one of them changed, originalFilename included", async () => {
  const { db, files, heard } = await setUp();
  try {
    const file = await files.create(
      { name: 'b.txt', mimeType: 'text/plain', originalFilename: 'b (original).txt', parents: [] },
      alice,
    );
    heard.length = 0;
    const content = { contentKey: undefined, size: 0, md5: 'd41d8cd98f00b204e9800998ecf8427e' };
    await files.update(file.id, { originalFilename: 'b (original).txt', content }, alice);
    await files.update(file.id, { originalFilename: 'b (renamed).txt' }, alice);
    assert.deepEqual(
      heard.map((e) => [e.type, e.changed]),
      [
        ['update', ['content']],
        ['update', ['properties']],
      ],
    );
    assert.equal((await files.get(file.id))?.originalFilename, 'b (renamed).txt');
  } finally {
    await db.close();
  }
});

test('deleting a folder removes each file of its tree once, a file in two of its folders included', async () => {
  const { db, files, heard } = await setUp();
  try {
    const top = await files.create({ name: 'top', mimeType: FOLDER_MIME, parents: [] }, alice);
    const inner = await files.create({ name: 'inner', mimeType: FOLDER_MIME, parents: [top.id] }, alice);
    const twice = await files.create({ name: 'twice.txt', mimeType: 'text/plain', parents: [top.id, inner.id] }, alice);
    heard.length = 0;
    await files.delete(top.id, alice);
    const removed = heard.filter((e) => e.type === 'remove').map((e) => e.fileId);
    assert.deepEqual([...removed].sort(), [top.id, inner.id, twice.id].sort());
    for (const id of [top.id, inner.id, twice.id]) assert.equal(await files.get(id), undefined);
  } finally {
    await db.close();
  }
});

test('a grant to anyone with the link has the id anyoneWithLink', async () => {
  const { db, files } = await setUp();
  try {
    const file = await files.create({ name: 'c.txt', mimeType: 'text/plain', parents: [] }, alice);
    const perm = await files.addPermission(file.id, { type: 'anyone', role: 'reader' }, alice);
    assert.equal(perm.id, 'anyoneWithLink');
    assert.ok((await files.permissions(file.id)).some((p) => p.id === 'anyoneWithLink' && p.type === 'anyone'));
  } finally {
    await db.close();
  }
});

test("a file resource without the owner's permission row still names the owner's user permission id", async () => {
  const { db, files } = await setUp();
  try {
    const file = await files.create({ name: 'd.txt', mimeType: 'text/plain', parents: [] }, alice);
    const owners = (fileResource(file, [], alice) as { owners?: Record<string, unknown>[] }).owners ?? [];
    assert.equal(owners.length, 1);
    assert.equal(owners[0].emailAddress, 'alice@example.com');
    assert.equal(owners[0].permissionId, permissionIdFor('user', 'alice@example.com'));
    assert.equal(owners[0].me, true);
  } finally {
    await db.close();
  }
});
