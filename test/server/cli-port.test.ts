/** `store-service --port`: only digits make a port; anything else stops the start with exit 2, naming the value. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';

const BIN = join(resolve(import.meta.dirname, '../..'), 'bin/store-service.js');
const dataDir = mkdtempSync(join(tmpdir(), 'cli-port-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

function run(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { timeout: 60_000 }, (error, _stdout, stderr) => {
      done({ code: error ? ((error as { code?: number }).code ?? null) : 0, stderr });
    });
  });
}

test('a port with anything before its digits is exit 2, naming it', async () => {
  const r = await run(['--port', 'x8080', '--data', dataDir]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /--port must be 0–65535, got "x8080"/);
});

test('a port with anything after its digits is exit 2, naming it', async () => {
  const r = await run(['--port', '8080x', '--data', dataDir]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /--port must be 0–65535, got "8080x"/);
});
