/**
 * Growing from one machine to several: a single machine's data folder moved into PostgreSQL + a real RGW bucket by
 * `store-service migrate`, then served by two nodes; and the service mounted in two app servers of a team's own
 * (the handler) over the same backends, one upload going through both.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { createStoreHandler, type StoreHandler } from '../../server/handler/index.ts';
import { httpRequest, startService } from '../server/helpers/service.ts';
import { startObjectStore, startPostgres, type ObjectStore, type Postgres } from './servers.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const CHUNK = 256 * 1024;
const md5 = (b: Uint8Array) => createHash('md5').update(b).digest('hex');

let pgServer: Postgres;
let s3: ObjectStore;
const dirs: string[] = [];

before(async () => {
  [pgServer, s3] = await Promise.all([startPostgres(), startObjectStore()]);
  Object.assign(process.env, s3.env);
});

after(async () => {
  await Promise.allSettled([pgServer?.dispose(), s3?.dispose()]);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A fresh database on the test server. */
async function freshDatabase(name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: pgServer.url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(pgServer.url);
  url.pathname = `/${name}`;
  return url.href;
}

function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/store-service.js'), ...args], {
      cwd: ROOT,
      env: process.env,
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('exit', (code) => done({ code: code ?? 1, out, err }));
  });
}

describe('store-service migrate', () => {
  it('moves a data folder into PostgreSQL and the bucket: two nodes then serve every file, byte-identical, with its sharing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'migrate-'));
    dirs.push(dir);
    const single = await startService({ dataDir: join(dir, 'data') });
    const small = randomBytes(70_000);
    const big = randomBytes(3 * CHUNK + 17);
    const a = await single.api('POST', '/upload/store/v3/files?uploadType=media', {
      headers: { 'Content-Type': 'application/octet-stream' },
      body: small,
    });
    assert.equal(a.status, 200, a.text);
    const start = await single.api('POST', '/upload/store/v3/files?uploadType=resumable', {
      body: { name: 'big.bin' },
    });
    const done = await httpRequest(
      'PUT',
      start.headers.location as string,
      { 'Content-Length': String(big.length) },
      big,
    );
    assert.equal(done.status, 200, done.text);
    const shared = done.json<{ id: string }>().id;
    const grant = await single.api('POST', `/store/v3/files/${shared}/permissions`, {
      body: { type: 'user', role: 'reader', emailAddress: 'bob@example.com' },
    });
    assert.equal(grant.status, 200, grant.text);
    const open = await single.api('POST', '/upload/store/v3/files?uploadType=resumable', {
      body: { name: 'left.bin' },
    });
    assert.equal(open.status, 200);
    const before = await single.api('GET', '/store/v3/changes/startPageToken');
    await single.kill('SIGTERM');

    const database = await freshDatabase('migrated');
    const content = `s3://${s3.bucket}/migrated`;
    const refused = await run([
      'migrate',
      '--data',
      join(dir, 'nowhere'),
      '--database',
      database,
      '--content',
      content,
    ]);
    assert.equal(refused.code, 1);
    assert.match(refused.err, /not a store-service data folder/);
    const moved = await run(['migrate', '--data', join(dir, 'data'), '--database', database, '--content', content]);
    assert.equal(moved.code, 0, moved.err);
    assert.match(moved.out, /moved files 2, .*2 content objects \(\d+ bytes\); 1 open resumable sessions left behind/);
    const again = await run(['migrate', '--data', join(dir, 'data'), '--database', database, '--content', content]);
    assert.equal(again.code, 1, 'a second run into a database that holds files is refused');

    const cluster = await startService({ cluster: { database, content, nodes: 2 } });
    try {
      const aFile = a.json<{ id: string }>().id;
      for (const [id, bytes] of [
        [aFile, small],
        [shared, big],
      ] as const) {
        const got = await cluster.api('GET', `/store/v3/files/${id}?alt=media`);
        assert.equal(got.status, 200, got.text);
        assert.equal(md5(got.body), md5(bytes));
      }
      const asBob = await cluster.api('GET', `/store/v3/files/${shared}?fields=name`, { token: 'dev-token-bob' });
      assert.equal(asBob.status, 200, asBob.text);
      assert.equal((await cluster.api('GET', `/store/v3/files/${aFile}`, { token: 'dev-token-bob' })).status, 404);
      // The change log goes on from where it was; new files get new numbers.
      const token = await cluster.api('GET', '/store/v3/changes/startPageToken');
      assert.equal(
        token.json<{ startPageToken: string }>().startPageToken,
        before.json<{ startPageToken: string }>().startPageToken,
      );
      const created = await cluster.api('POST', '/store/v3/files', { body: { name: 'after.txt' } });
      assert.equal(created.status, 200, created.text);
      const list = await cluster.api('GET', '/store/v3/files?fields=files(name)');
      assert.deepEqual(
        list
          .json<{ files: { name: string }[] }>()
          .files.map((f) => f.name)
          .sort(),
        ['Untitled', 'after.txt', 'big.bin'].sort(),
      );
      // The session that was still open is not carried over: its client starts again.
      const left = new URL(open.headers.location as string);
      const query = await httpRequest('PUT', `${cluster.url}${left.pathname}${left.search}`, {
        'Content-Range': 'bytes */*',
        'Content-Length': '0',
      });
      assert.equal(query.status, 404, query.text);
    } finally {
      await cluster.stop();
    }
  });
});

describe('the handler in two app servers over the shared backends', () => {
  let handlers: StoreHandler[] = [];
  let servers: Server[] = [];
  after(async () => {
    for (const s of servers) s.close();
    for (const h of handlers) await h.close();
  });

  it('one resumable upload through both app servers, stored byte-identical', async () => {
    const database = await freshDatabase('apps');
    const dir = mkdtempSync(join(tmpdir(), 'apps-'));
    dirs.push(dir);
    handlers = await Promise.all(
      [0, 1].map((i) =>
        createStoreHandler({
          dataDir: join(dir, `app-${i}`),
          database,
          config: { content: `s3://${s3.bucket}/apps` },
          authenticate: ({ headers }) =>
            headers.get('cookie') === 'session=alice' ? { email: 'alice@example.com' } : undefined,
        }),
      ),
    );
    servers = handlers.map((h) => createServer((req, res) => h.node(req, res)));
    const origins = await Promise.all(
      servers.map(
        (s) =>
          new Promise<string>((done) =>
            s.listen(0, '127.0.0.1', () => done(`http://127.0.0.1:${(s.address() as AddressInfo).port}`)),
          ),
      ),
    );
    const data = randomBytes(4 * CHUNK + 5);
    const cookie = { Cookie: 'session=alice' };
    const start = await httpRequest(
      'POST',
      `${origins[0]}/api/store/upload/store/v3/files?uploadType=resumable`,
      { ...cookie, 'Content-Type': 'application/json' },
      '{"name":"two-apps.bin"}',
    );
    assert.equal(start.status, 200, start.text);
    const path = new URL(start.headers.location as string);
    const first = await httpRequest(
      'PUT',
      `${origins[0]}${path.pathname}${path.search}`,
      {
        'Content-Range': `bytes 0-${2 * CHUNK - 1}/${data.length}`,
      },
      data.subarray(0, 2 * CHUNK),
    );
    assert.equal(first.status, 308, first.text);
    const rest = await httpRequest(
      'PUT',
      `${origins[1]}${path.pathname}${path.search}`,
      {
        'Content-Range': `bytes ${2 * CHUNK}-${data.length - 1}/${data.length}`,
      },
      data.subarray(2 * CHUNK),
    );
    assert.equal(rest.status, 200, rest.text);
    const id = rest.json<{ id: string }>().id;
    const got = await httpRequest('GET', `${origins[0]}/api/store/store/v3/files/${id}?alt=media`, cookie);
    assert.equal(got.status, 200);
    assert.equal(md5(got.body), md5(data));
  });
});
