/**
 * `store-service migrate` (`server/migrate-cli.ts`) refuses arguments it cannot use with exit 2 and its usage, and a
 * migration that cannot reach its database with exit 1 and one line saying why. The data folder is a real stopped
 * service's (the helper's); the moving itself needs PostgreSQL and an object store and is the cluster suite's
 * (`test/cluster/grow.test.ts`). Each check failed once against a planted mutant (issue 39).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { type ServiceHandle, startService } from './helpers/service.ts';

const BIN = join(resolve(import.meta.dirname, '../..'), 'bin/store-service.js');
/** Nothing listens on port 1: the connection is refused at once. */
const NO_DATABASE = 'postgres://u:p@127.0.0.1:1/db';

let svc: ServiceHandle;
before(async () => {
  svc = await startService();
  await svc.kill();
});
after(() => svc.stop());

function migrate(...args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolvePromise) => {
    execFile(process.execPath, [BIN, 'migrate', ...args], { timeout: 60_000 }, (error, _stdout, stderr) => {
      resolvePromise({ code: error ? Number(error.code ?? -1) : 0, stderr });
    });
  });
}

test('a missing --data is exit 2 with the usage', async () => {
  const { code, stderr } = await migrate('--database', NO_DATABASE, '--content', 's3://bucket');
  assert.equal(code, 2, stderr);
  assert.match(stderr, /--data, --database postgres:\/\/… and --content s3:\/\/… are all needed/);
  assert.match(
    stderr,
    /^usage: store-service migrate --data DIR --database postgres:\/\/USER:PASS@HOST:PORT\/DB --content s3:\/\/BUCKET\[\/PREFIX\]$/m,
  );
});

test('a database URL that only contains postgres:// is exit 2', async () => {
  const { code, stderr } = await migrate('--data', svc.dataDir, '--database', `x${NO_DATABASE}`, '--content', 's3://b');
  assert.equal(code, 2, stderr);
  assert.match(stderr, /are all needed/);
});

test('an unreachable database is exit 1 with one line naming it', async () => {
  const { code, stderr } = await migrate('--data', svc.dataDir, '--database', NO_DATABASE, '--content', 's3://b');
  assert.equal(code, 1, stderr);
  assert.match(stderr, /^store-service migrate: .*127\.0\.0\.1:1.*unreachable/m);
});

test('an option it does not know is exit 2 with the parser’s reason and the usage', async () => {
  const { code, stderr } = await migrate('--data', svc.dataDir, '--frobnicate');
  assert.equal(code, 2, stderr);
  assert.match(stderr, /^store-service migrate: .*--frobnicate/m);
  assert.match(stderr, /^usage: store-service migrate --data DIR /m);
});

test('a folder without store.db is exit 1 with one line saying it is not a data folder', async () => {
  const nowhere = join(svc.dataDir, 'not-a-data-folder');
  const { code, stderr } = await migrate('--data', nowhere, '--database', NO_DATABASE, '--content', 's3://bucket');
  assert.equal(code, 1, stderr);
  assert.equal(stderr, `store-service migrate: ${nowhere} holds no store.db: not a store-service data folder\n`);
});
