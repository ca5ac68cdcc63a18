/**
 * The SQLite metadata port (`server/metadata/sqlite-metadata.ts`) on what the service's requests rarely meet: a
 * statement that breaks a unique key outside any transaction, the in-process signals (`notify`/`listen`), a group
 * commit rolled back, the `meta` values, and a database a newer version migrated.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { getMeta, setMeta, SchemaTooNewError } from '../../server/metadata/migrations.ts';
import { UniqueViolation, UnstorableText } from '../../server/metadata/metadata-port.ts';
import { openSqliteFile } from '../../server/metadata/sqlite-metadata.ts';

const scratch = mkdtempSync(join(tmpdir(), 'sqlite-metadata-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

test('a statement that breaks a unique key rejects with UniqueViolation, the SQLite error as its cause', async () => {
  const db = await openSqliteFile(':memory:');
  try {
    await db.run('INSERT INTO meta (key, value) VALUES (?, ?)', 'twice', 'first');
    const error = await db.run('INSERT INTO meta (key, value) VALUES (?, ?)', 'twice', 'second').then(
      () => assert.fail('the second insert was accepted'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof UniqueViolation, String(error));
    assert.equal(error.name, 'UniqueViolation');
    assert.equal(error.message, 'a row with that key exists already');
    assert.equal((error.cause as { code?: string }).code, 'SQLITE_CONSTRAINT_PRIMARYKEY');
    assert.equal(await getMeta(db, 'twice'), 'first');
  } finally {
    await db.close();
  }
});

test('UnstorableText (a backend refusing U+0000) names itself and keeps its cause', () => {
  const cause = new Error('invalid byte sequence for encoding "UTF8": 0x00');
  const error = new UnstorableText(cause);
  assert.equal(error.name, 'UnstorableText');
  assert.equal(error.message, 'Text with the NUL character (U+0000) cannot be stored or searched.');
  assert.equal(error.cause, cause);
});

test('notify reaches the listeners of its topic only, each once, until they unsubscribe', async () => {
  const db = await openSqliteFile(':memory:');
  try {
    const heard: string[] = [];
    const offA = db.listen('topic-a', (p) => heard.push(`a1:${p}`));
    db.listen('topic-a', (p) => heard.push(`a2:${p}`));
    db.listen('topic-b', (p) => heard.push(`b:${p}`));
    await db.notify('topic-a', 'one');
    assert.deepEqual(heard, ['a1:one', 'a2:one']);
    await db.notify('nobody-listens', 'lost');
    assert.deepEqual(heard, ['a1:one', 'a2:one']);
    offA();
    await db.notify('topic-a', 'two');
    await db.notify('topic-b', 'three');
    assert.deepEqual(heard, ['a1:one', 'a2:one', 'a2:two', 'b:three']);
  } finally {
    await db.close();
  }
});

test('a rolled-back group commit leaves none of its rows, and the next transaction commits on its own', async () => {
  const db = await openSqliteFile(':memory:');
  try {
    const group = db.group;
    assert.ok(group, 'SQLite offers group commit');
    assert.equal(group.busy, false);
    group.begin();
    assert.equal(group.busy, true);
    await db.transaction(() => setMeta(db, 'grouped', 'in the group'));
    group.rollback();
    assert.equal(group.busy, false, 'the group is closed');
    assert.equal(await getMeta(db, 'grouped'), undefined, 'its row went with it');
    // Nothing is open now: a second rollback does nothing (and does not throw).
    group.rollback();
    await db.transaction(() => setMeta(db, 'after', 'committed'));
    assert.equal(await getMeta(db, 'after'), 'committed');
  } finally {
    await db.close();
  }
});

test('setMeta writes a value and replaces it; getMeta reads it back, undefined for a key never set', async () => {
  const db = await openSqliteFile(':memory:');
  try {
    assert.equal(await getMeta(db, 'never-set'), undefined);
    await setMeta(db, 'clockOffsetMs', '1500');
    assert.equal(await getMeta(db, 'clockOffsetMs'), '1500');
    await setMeta(db, 'clockOffsetMs', '-20');
    assert.equal(await getMeta(db, 'clockOffsetMs'), '-20');
    assert.deepEqual(await db.all('SELECT value FROM meta WHERE key = ?', 'clockOffsetMs'), [{ value: '-20' }]);
  } finally {
    await db.close();
  }
});

test('a database a newer version migrated is refused with SchemaTooNewError naming both versions', async () => {
  const file = join(scratch, 'newer.db');
  const db = await openSqliteFile(file);
  const known = Number(await getMeta(db, 'schemaVersion'));
  assert.ok(known > 0);
  await setMeta(db, 'schemaVersion', String(known + 7));
  await db.close();
  const error = await openSqliteFile(file).then(
    () => assert.fail('the newer database was opened'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof SchemaTooNewError, String(error));
  assert.equal(error.name, 'SchemaTooNewError');
  assert.equal(
    error.message,
    `the database's schema is version ${known + 7}, newer than this store-service knows (${known}): ` +
      'upgrade this node to the version that migrated it',
  );
});
