/**
 * Schema 5 (stored content named by its content key, written under `content/`) over what the previous version
 * left: its own code, kept as a tarball in `test/fixtures/previous-service/`, writes a data folder (or, under `test/cluster/on-cluster.ts`, a
 * PostgreSQL database and a bucket, three nodes) with every kind of stored content and a resumable session open
 * past its first 8 MiB (on S3: a multipart upload in progress at the old key; on disk: its part where a completion
 * the previous version began would have moved it). This version then serves every file byte for byte, exports the
 * converted one, resumes the session to the end, frees replaced old content, and keeps serving across a restart
 * (whose sweep must not take old content); the previous version refuses the database.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import { bytesOf } from './helpers/bytes.ts';
import { unpackService } from './helpers/previous-version.ts';
import { type ServiceHandle, startService } from './helpers/service.ts';
import { databaseFor, TEST_CONTENT } from './helpers/test-database.ts';

const MiB = 1024 * 1024;
const DOC = 'application/vnd.svc-apps.document';
const md5 = (b: Uint8Array) => createHash('md5').update(b).digest('hex');

/** The service of 5bb5dab, the last commit of schema 4, which kept content as `blobs/<name>`. */
const previous = unpackService('schema-4-5bb5dab.tar.gz');
const dataDir = mkdtempSync(join(tmpdir(), 'store-upgrade-'));
const running: ServiceHandle[] = [];
after(async () => {
  // `stop`, not `kill`: over three nodes it also closes their proxy, which a kill leaves for a restart.
  await Promise.allSettled(running.map((s) => s.stop()));
  previous.dispose();
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(version: 'previous' | 'current'): Promise<ServiceHandle> {
  const svc = await startService({ dataDir, ...(version === 'previous' ? previous.start : {}) });
  running.push(svc);
  return svc;
}

function multipart(meta: object, media: string, mediaType: string): string {
  return (
    `--b0undary\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n${JSON.stringify(meta)}\r\n` +
    `--b0undary\r\nContent-Type: ${mediaType}\r\n\r\n${media}\r\n--b0undary--`
  );
}

/**
 * The schema version and each file's stored content (`blob` before schema 5, `content_key` after), read with the
 * database's own client (opening it through the service's port would migrate it) while no service runs.
 */
async function rows(): Promise<{ version: string; keys: Map<string, string | null> }> {
  const url = await databaseFor(dataDir);
  let files: Record<string, unknown>[];
  let version: string;
  if (url === undefined) {
    const db = new Database(join(dataDir, 'store.db'), { readonly: true });
    files = db.prepare('SELECT * FROM files').all() as Record<string, unknown>[];
    version = (db.prepare("SELECT value FROM meta WHERE key = 'schemaVersion'").get() as { value: string }).value;
    db.close();
  } else {
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      files = (await db.query('SELECT * FROM files')).rows as Record<string, unknown>[];
      version = (await db.query("SELECT value FROM meta WHERE key = 'schemaVersion'")).rows[0].value as string;
    } finally {
      await db.end();
    }
  }
  const key = (r: Record<string, unknown>) => (r.content_key ?? r.blob ?? null) as string | null;
  return { version, keys: new Map(files.map((r) => [r.id as string, key(r)])) };
}

test('what the previous version stored is served, exported and resumed after the upgrade to content keys', async () => {
  // ---- The previous version writes.
  const old = await start('previous');
  const expected = new Map<string, Buffer>();
  const simple = bytesOf(70_000, 1);
  const a = await old.api('POST', '/upload/store/v3/files?uploadType=media', {
    headers: { 'Content-Type': 'application/octet-stream' },
    body: simple,
  });
  assert.equal(a.status, 200, a.text);
  expected.set(a.json().id, simple);
  const csv = 'x,y\n3,4\n';
  const b = await old.api('POST', '/upload/store/v3/files?uploadType=multipart', {
    headers: { 'Content-Type': 'multipart/related; boundary=b0undary' },
    body: multipart({ name: 'data.csv' }, csv, 'text/csv'),
  });
  assert.equal(b.status, 200, b.text);
  expected.set(b.json().id, Buffer.from(csv));
  // Over one S3 part: a completed multipart object.
  const big = bytesOf(9 * MiB + 1234, 2);
  const bigStart = await old.api('POST', '/upload/store/v3/files?uploadType=resumable', { body: { name: 'big' } });
  assert.equal(bigStart.status, 200, bigStart.text);
  const c = await old.api('PUT', String(bigStart.headers.location), { body: big });
  assert.equal(c.status, 200, c.text);
  expected.set(c.json().id, big);
  const doc = await old.api('POST', '/upload/store/v3/files?uploadType=multipart', {
    headers: { 'Content-Type': 'multipart/related; boundary=b0undary' },
    body: multipart({ name: 'notes', mimeType: DOC }, 'written before the upgrade\n', 'text/plain'),
  });
  assert.equal(doc.status, 200, doc.text);
  // Open: its first part in a multipart upload at the old key (on S3), one block past it staged.
  const open = bytesOf(12 * MiB + 5000, 3);
  const cut = 8 * MiB + 256 * 1024;
  const session = await old.api('POST', '/upload/store/v3/files?uploadType=resumable', {
    headers: { 'x-upload-content-length': String(open.length) },
    body: { name: 'across-versions.bin' },
  });
  assert.equal(session.status, 200, session.text);
  // The session's URI without the origin: the next version listens on another port.
  const location = new URL(String(session.headers.location));
  const uri = `${location.pathname}${location.search}`;
  const first = await old.api('PUT', uri, {
    headers: { 'content-range': `bytes 0-${cut - 1}/${open.length}` },
    body: open.subarray(0, cut),
  });
  assert.equal(first.status, 308, first.text);
  await old.kill();
  const before = await rows();
  assert.equal(before.version, '4');
  assert.deepEqual(
    [...before.keys.values()].map((k) => /^(b-[0-9a-z]+-[0-9a-f]{16}|u-[\w-]+)$/.test(k ?? '')),
    [true, true, true, true],
    'the previous version named content by bare names',
  );
  if (TEST_CONTENT === undefined) {
    assert.equal(readdirSync(join(dataDir, 'blobs')).length, 4);
    // As the previous version leaves a session whose completion a crash cut between moving its part into
    // `blobs/u-<id>` and committing the file: this version's recovery must move it back.
    const id = location.searchParams.get('upload_id') ?? '';
    renameSync(join(dataDir, 'sessions', `${id}.part`), join(dataDir, 'blobs', `u-${id}`));
  }

  // ---- This version takes over.
  const svc = await start('current');
  for (const [id, bytes] of expected) {
    const got = await svc.api('GET', `/store/v3/files/${id}?alt=media`);
    assert.equal(got.status, 200, got.text);
    assert.equal(md5(got.body), md5(bytes), `file ${id}'s bytes`);
    const meta = await svc.api('GET', `/store/v3/files/${id}?fields=md5Checksum`);
    assert.equal(meta.json().md5Checksum, md5(bytes));
  }
  const ranged = await svc.api('GET', `/store/v3/files/${c.json().id}?alt=media`, {
    headers: { Range: `bytes=${8 * MiB - 10}-${8 * MiB + 9}` },
  });
  assert.equal(ranged.status, 206, ranged.text);
  assert.ok(ranged.body.equals(big.subarray(8 * MiB - 10, 8 * MiB + 10)));
  const exported = await svc.api(
    'GET',
    `/store/v3/files/${doc.json().id}/export?mimeType=${encodeURIComponent('text/plain')}`,
  );
  assert.equal(exported.status, 200, exported.text);
  assert.match(exported.text, /written before the upgrade/);

  const status = await svc.api('PUT', uri, { headers: { 'content-range': `bytes */${open.length}` } });
  assert.equal(status.status, 308, status.text);
  assert.equal(status.headers.range, `bytes=0-${cut - 1}`);
  const rest = await svc.api('PUT', uri, {
    headers: { 'content-range': `bytes ${cut}-${open.length - 1}/${open.length}` },
    body: open.subarray(cut),
  });
  assert.equal(rest.status, 200, rest.text);
  const resumed = rest.json<{ id: string; md5Checksum: string }>();
  assert.equal(resumed.md5Checksum, md5(open));
  expected.set(resumed.id, open);

  // New content for an old file: its old content is freed, the new one written under content/.
  const replaced = Buffer.from('replaced after the upgrade');
  const patch = await svc.api('PATCH', `/upload/store/v3/files/${a.json().id}?uploadType=media`, {
    headers: { 'Content-Type': 'application/octet-stream' },
    body: replaced,
  });
  assert.equal(patch.status, 200, patch.text);
  expected.set(a.json().id, replaced);

  // ---- The rows, migrated; then a restart (its sweep) and every file once more.
  await svc.kill();
  const afterward = await rows();
  assert.equal(afterward.version, '5');
  assert.match(afterward.keys.get(b.json().id) ?? '', /^blobs\/b-/, 'old content keeps its place');
  // In a bucket the session's multipart upload, begun at the old key, completes there; on disk its part is moved.
  const dir = TEST_CONTENT === undefined ? 'content' : 'blobs';
  assert.equal(afterward.keys.get(resumed.id), `${dir}/u-${location.searchParams.get('upload_id')}`);
  assert.match(afterward.keys.get(a.json().id) ?? '', /^content\/c-/);
  await svc.restart();
  if (TEST_CONTENT === undefined) {
    // Freed once its replacement committed, or by the start's sweep at the latest; the other old content stays.
    assert.equal(readdirSync(join(dataDir, 'blobs')).length, 3, 'the replaced old content is gone, no other');
    assert.ok(existsSync(join(dataDir, afterward.keys.get(resumed.id) ?? '')));
  }
  for (const [id, bytes] of expected) {
    const got = await svc.api('GET', `/store/v3/files/${id}?alt=media`);
    assert.equal(got.status, 200, got.text);
    assert.equal(md5(got.body), md5(bytes), `file ${id}'s bytes after a restart`);
  }
  await svc.kill();

  // ---- The previous version refuses what this one migrated.
  await assert.rejects(start('previous'), /schema is version 5, newer than this store-service knows \(4\)/);
});
