/**
 * `store-service` that cannot start (a data directory it cannot make, a database it cannot reach) says why in one
 * line, `store-service: cannot start: …`, and exits 1: never a stack trace, never a half-started node listening.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { getMeta, setMeta } from '../../server/metadata/migrations.ts';
import { openSqliteMetadata } from '../../server/metadata/sqlite-metadata.ts';

const BIN = join(resolve(import.meta.dirname, '../..'), 'bin/store-service.js');
const scratch = mkdtempSync(join(tmpdir(), 'cli-start-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

function run(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { timeout: 60_000, env }, (error, stdout, stderr) => {
      done({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr });
    });
  });
}

test('a data directory that cannot be made stops the start with exit 1 and one line saying why', async () => {
  const file = join(scratch, 'a-file');
  writeFileSync(file, 'not a directory');
  const r = await run(['--port', '0', '--data', join(file, 'data')]);
  assert.equal(r.code, 1, r.stderr);
  assert.equal(r.stdout, '', 'nothing listened');
  assert.match(r.stderr, /^store-service: cannot start: ENOTDIR: not a directory, mkdir '.*a-file\/data'\n$/);
});

test('a database that cannot be reached stops the start with exit 1, its password not shown', async () => {
  const r = await run([
    '--port',
    '0',
    '--data',
    join(scratch, 'unreached'),
    '--database',
    'postgres://kit:secret-word@127.0.0.1:1/store',
  ]);
  assert.equal(r.code, 1, r.stderr);
  assert.equal(r.stdout, '', 'nothing listened');
  assert.match(
    r.stderr,
    /^store-service: cannot start: cannot use the database postgres:\/\/kit:\*\*\*@127\.0\.0\.1:1\/store/,
  );
  assert.equal(r.stderr.split('\n').filter(Boolean).length, 1, r.stderr);
  assert.ok(!r.stderr.includes('secret-word'), r.stderr);
});

test('an object store that cannot be reached stops the start with exit 1 and one line naming the bucket', async () => {
  const r = await run(
    ['--port', '0', '--data', join(scratch, 'unreached-bucket'), '--content', 's3://store-bucket/pre'],
    {
      ...process.env,
      // A closed port on this machine: the connection is refused at once.
      AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:1',
      AWS_ACCESS_KEY_ID: 'test-key',
      AWS_SECRET_ACCESS_KEY: 'test-secret',
      AWS_REGION: 'us-east-1',
    },
  );
  assert.equal(r.code, 1, r.stderr);
  assert.equal(r.stdout, '', 'nothing listened');
  assert.match(
    r.stderr,
    /^store-service: cannot start: content: cannot reach the object store s3:\/\/store-bucket\/pre\/ at http:\/\/127\.0\.0\.1:1 /,
  );
  assert.equal(r.stderr.split('\n').filter(Boolean).length, 1, r.stderr);
});

test('a database a newer version migrated stops the start with exit 1, naming both schema versions', async () => {
  const data = join(scratch, 'newer-schema');
  mkdirSync(data);
  const db = await openSqliteMetadata(data);
  const known = Number(await getMeta(db, 'schemaVersion'));
  await setMeta(db, 'schemaVersion', String(known + 1));
  await db.close();
  const r = await run(['--port', '0', '--data', data]);
  assert.equal(r.code, 1, r.stderr);
  assert.equal(r.stdout, '', 'nothing listened');
  assert.equal(
    r.stderr,
    `store-service: cannot start: the database's schema is version ${known + 1}, newer than this store-service ` +
      `knows (${known}): upgrade this node to the version that migrated it\n`,
  );
});
