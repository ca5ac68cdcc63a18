/**
 * `store-service` (`server/cli.ts`) and the arguments it refuses: an option it does not know, a storage quota that
 * is not a byte count, a `--content` that is not an S3 URL, a `--database` that is not a PostgreSQL one. Each stops
 * the start with exit 2 and one line naming the value (the parser's own reason with the usage for an unknown
 * option), and nothing listens; `--help` prints the usage and exits 0 without starting.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';

const BIN = join(resolve(import.meta.dirname, '../..'), 'bin/store-service.js');
const scratch = mkdtempSync(join(tmpdir(), 'cli-arguments-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const USAGE =
  'usage: store-service [--port N] [--host H] [--data DIR] [--config FILE] [--admin] [--https] [--storage-quota BYTES]\n' +
  '                     [--database postgres://USER:PASS@HOST:PORT/DB] [--content s3://BUCKET[/PREFIX]]';

/**
 * Runs the command on port 0 and a scratch folder. A run that starts listening (which none of these should) is
 * stopped at once, so a wrong start fails the check rather than hanging it.
 */
function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, '--port', '0', '--data', join(scratch, 'data'), ...args]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      if (stdout.includes('listening on')) child.kill('SIGTERM');
    });
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

test('an option it does not know is exit 2 with the parser’s reason and the usage', async () => {
  const r = await run(['--frobnicate']);
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stdout, '', 'nothing listened');
  assert.match(r.stderr, /^store-service: .*'--frobnicate'/);
  assert.ok(r.stderr.endsWith(`\n${USAGE}\n`), r.stderr);
});

test('--help prints the usage and exits 0 without starting', async () => {
  const r = await run(['--help']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, `${USAGE}\n`);
  assert.equal(r.stderr, '');
});

test('a storage quota that is not a byte count is exit 2, naming it', async () => {
  const r = await run(['--storage-quota', '12k']);
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stdout, '', 'nothing listened');
  assert.equal(r.stderr, 'store-service: --storage-quota must be a byte count, got "12k"\n');
});

test('a --content that is not an s3:// URL is exit 2, naming it', async () => {
  const r = await run(['--content', 'gs://store-bucket']);
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stdout, '', 'nothing listened');
  assert.equal(r.stderr, 'store-service: --content must be s3://BUCKET[/PREFIX], got "gs://store-bucket"\n');
});

test('a --content that only ends in s3:// is refused too', async () => {
  const r = await run(['--content', 'x-s3://']);
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stderr, 'store-service: --content must be s3://BUCKET[/PREFIX], got "x-s3://"\n');
});

test('a --database that is not a postgres:// URL is exit 2, naming it', async () => {
  const r = await run(['--database', 'mysql://u:p@127.0.0.1:1/db']);
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stdout, '', 'nothing listened');
  assert.equal(r.stderr, 'store-service: --database must be a postgres:// URL, got "mysql://u:p@127.0.0.1:1/db"\n');
});
