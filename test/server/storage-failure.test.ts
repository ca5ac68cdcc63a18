/**
 * Which errors count as the service's storage failing (`server/store/storage-failure.ts`) and the 503 each gets; the
 * SQL fragments the two dialects write differently (`server/metadata/sql-dialect.ts`), the SQLite ones run on a real
 * database; and the file-kind tests of the file store (`FileStore.isFolder`, `FileStore.isNativeDocument`).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openSqliteFile } from '../../server/metadata/sqlite-metadata.ts';
import { greatest, insertionOrder, jsonArrayItems } from '../../server/metadata/sql-dialect.ts';
import type { FileRow } from '../../server/store/file-rows.ts';
import { FileStore } from '../../server/store/files.ts';
import { isStorageFailure, storageFailureError } from '../../server/store/storage-failure.ts';
import { DOCUMENT_MIME, FOLDER_MIME, SCRIPT_TEXT_MIME } from '../../src/protocol/native.ts';

const coded = (code: string | undefined) => Object.assign(new Error(`failed: ${code}`), { code });

test('storage failures are errors with a disk, SQLite or database code; anything else is not', () => {
  for (const code of [
    'ENOSPC',
    'EDQUOT',
    'EFBIG',
    'EIO',
    'SQLITE_FULL',
    'SQLITE_IOERR_WRITE',
    'DB_UNAVAILABLE',
    'DB_BUSY',
  ])
    assert.equal(isStorageFailure(coded(code)), true, code);
  for (const code of ['ENOENT', 'SQLITE_CONSTRAINT_UNIQUE', undefined])
    assert.equal(isStorageFailure(coded(code)), false, String(code));
  // Something thrown that is not an Error, even one carrying a storage code, is a bug, not the storage.
  assert.equal(isStorageFailure({ code: 'ENOSPC' }), false);
  assert.equal(isStorageFailure('ENOSPC'), false);
  assert.equal(isStorageFailure(undefined), false);
});

test('each storage failure is answered 503 backendError with Retry-After, saying what failed', () => {
  const cases: [string | undefined, string][] = [
    ['ENOSPC', 'The service is out of storage space (ENOSPC)'],
    ['SQLITE_FULL', 'The service is out of storage space (SQLITE_FULL)'],
    ['EFBIG', "The file is larger than the service's storage can hold (EFBIG)"],
    ['DB_UNAVAILABLE', "The service's database is unreachable (DB_UNAVAILABLE)"],
    ['DB_BUSY', 'Another request holds this upload on another node (DB_BUSY)'],
    ['EIO', 'The service could not write to its storage (EIO)'],
    [undefined, 'The service could not write to its storage ()'],
  ];
  for (const [code, what] of cases) {
    const error = storageFailureError(coded(code));
    assert.equal(error.status, 503);
    assert.equal(error.reason, 'backendError');
    assert.equal(error.message, `${what}; nothing partial was kept. Retry later.`);
    assert.equal(error.headers['Retry-After'], '5');
  }
});

test('the SQLite fragments run as meant; PostgreSQL gets its own spelling of each', async () => {
  const db = await openSqliteFile(':memory:');
  try {
    const items = await db.all<{ value: string }>(
      `SELECT j.value FROM (SELECT '["a","b"]' AS parents) f, ${jsonArrayItems('sqlite', 'f.parents')}`,
    );
    assert.deepEqual(
      items.map((r) => r.value),
      ['a', 'b'],
    );
    assert.deepEqual(await db.get(`SELECT ${greatest('sqlite', '3', '7')} AS g`), { g: 7 });
    assert.equal(insertionOrder('sqlite'), 'rowid');
  } finally {
    await db.close();
  }
  assert.equal(jsonArrayItems('postgres', 'f.parents'), 'json_array_elements_text(f.parents::json) AS j(value)');
  assert.equal(greatest('postgres', 'a', '?'), 'GREATEST(a, ?)');
  assert.equal(insertionOrder('postgres'), 'num');
});

test('a folder is a folder; a native document is a native kind other than a folder', () => {
  const row = (mimeType: string) => ({ mimeType }) as FileRow;
  assert.equal(FileStore.isFolder(row(FOLDER_MIME)), true);
  assert.equal(FileStore.isFolder(row(DOCUMENT_MIME)), false);
  assert.equal(FileStore.isFolder(row('text/plain')), false);
  assert.equal(FileStore.isNativeDocument(row(DOCUMENT_MIME)), true);
  assert.equal(FileStore.isNativeDocument(row(FOLDER_MIME)), false);
  assert.equal(FileStore.isNativeDocument(row('text/plain')), false);
  assert.equal(FileStore.isNativeDocument(row(SCRIPT_TEXT_MIME)), false);
});
