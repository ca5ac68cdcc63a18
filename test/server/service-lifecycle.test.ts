/**
 * What the service's wiring (`server/service.ts`, `server/cli.ts`, `server/index.ts`) promises around a request's
 * life: admin endpoints only with `--admin`, a cancelled session's staged bytes removed, a clean stop that leaves the
 * database whole in its own file, and the error shape of a path no route serves. Each check failed once against a
 * planted mutant of the line it guards (issue 39).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type ServiceHandle, startService } from './helpers/service.ts';

const BLOCK = 256 * 1024;

describe('a service started without --admin', () => {
  let svc: ServiceHandle;
  before(async () => {
    svc = await startService({ admin: false });
  });
  after(() => svc.stop());

  it('has no admin endpoints', async () => {
    const r = await svc.api('GET', '/__admin/memory');
    assert.equal(r.status, 404, r.text);
  });
});

describe('a service with --admin', () => {
  let svc: ServiceHandle;
  before(async () => {
    svc = await startService();
  });
  after(() => svc.stop());

  it('answers its admin endpoints, counting the metadata statements sent', async () => {
    const first = await svc.api('GET', '/__admin/memory');
    assert.equal(first.status, 200, first.text);
    const made = await svc.api('POST', '/store/v3/files', { body: { name: 'counted.txt' } });
    assert.equal(made.status, 200, made.text);
    const second = await svc.api('GET', '/__admin/memory');
    const before = first.json<{ databaseStatements: number }>().databaseStatements;
    const after = second.json<{ databaseStatements: number }>().databaseStatements;
    assert.ok(before > 0 && after > before, `statements ${before} then ${after}`);
  });

  it('a path no route serves is a 404 whose error names the path parameter', async () => {
    const r = await svc.api('GET', '/store/v3/nothing-here');
    assert.equal(r.status, 404);
    const body = r.json<{ error: { message: string; errors: { location?: string; locationType?: string }[] } }>();
    assert.equal(body.error.message, 'No API endpoint at /store/v3/nothing-here.');
    assert.equal(body.error.errors[0]?.location, 'path');
    assert.equal(body.error.errors[0]?.locationType, 'parameter');
  });

  it('a file name over 32767 characters is refused, saying so', async () => {
    const r = await svc.api('POST', '/store/v3/files', { body: { name: 'n'.repeat(32768) } });
    assert.equal(r.status, 400, r.text);
    assert.equal(
      r.json<{ error: { message: string } }>().error.message,
      'The file name is longer than 32767 characters.',
    );
  });

  it('a cancelled resumable session leaves no staged bytes behind', async () => {
    const start = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable', {
      body: { name: 'cancelled.bin' },
    });
    assert.equal(start.status, 200, start.text);
    const session = new URL(start.headers.location as string);
    const put = await svc.api('PUT', session.href, {
      token: null,
      headers: { 'Content-Range': `bytes 0-${BLOCK - 1}/*` },
      body: Buffer.alloc(BLOCK, 7),
    });
    assert.equal(put.status, 308, put.text);
    const part = join(svc.dataDir, 'sessions', `${session.searchParams.get('upload_id')}.part`);
    assert.ok(existsSync(part), 'the block is staged');
    const cancel = await svc.api('DELETE', session.href, { token: null });
    assert.equal(cancel.status, 499, cancel.text);
    // The removal is started with the cancel and finishes soon after it; wait for it, bounded.
    const until = Date.now() + 10_000;
    while (existsSync(part) && Date.now() < until) await new Promise((r) => setImmediate(r));
    assert.ok(!existsSync(part), 'the staged block is removed');
  });
});

describe('a stopped service', () => {
  it('closes its database on SIGTERM: no write-ahead log is left beside it', async () => {
    const svc = await startService();
    try {
      const made = await svc.api('POST', '/store/v3/files', { body: { name: 'kept.txt' } });
      assert.equal(made.status, 200, made.text);
      await svc.kill('SIGTERM');
      const left = readdirSync(svc.dataDir)
        .filter((name) => name.endsWith('-wal'))
        .filter((name) => statSync(join(svc.dataDir, name)).size > 0);
      assert.deepEqual(left, []);
      await svc.restart();
      const list = await svc.api('GET', '/store/v3/files?fields=files(name)');
      assert.deepEqual(list.json<{ files: { name: string }[] }>().files, [{ name: 'kept.txt' }]);
    } finally {
      await svc.stop();
    }
  });
});
