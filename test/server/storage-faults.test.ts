/**
 * The `--admin` storage faults, and what the service does when storage fails (no root needed): a disk that fills
 * or fails mid-body leaves a session holding only whole blocks that are on disk and equal to what was sent, answered
 * `503` with `Retry-After`; a database that cannot write refuses a completion without losing it; a slow disk is slow.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bytesOf } from './helpers/bytes.ts';
import { type ServiceHandle, startService } from './helpers/service.ts';
import Database from 'better-sqlite3';
import { isStorageFailure } from '../../server/store/storage-failure.ts';

const BLOCK = 256 * 1024;
let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

const md5 = (b: Uint8Array) => createHash('md5').update(b).digest('hex');

async function fault(action: object, match: object = { method: 'PUT', uploadType: 'resumable' }) {
  const r = await svc.api('POST', '/__admin/faults', { token: null, body: { match, action } });
  assert.equal(r.status, 200, r.text);
}

async function startSession() {
  const r = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable', { body: { name: 'f.bin' } });
  assert.equal(r.status, 200, r.text);
  return { uri: r.headers.location as string, id: r.headers['x-svc-upload-id'] as string };
}

/** The status query's stored size, checked against the part file: exactly its bytes, a true prefix of `data`. */
async function storedMatchesDisk(uri: string, id: string, data: Buffer): Promise<number> {
  const r = await svc.api('PUT', uri, { token: null, body: '', headers: { 'Content-Range': 'bytes */*' } });
  assert.equal(r.status, 308, r.text);
  const range = r.headers.range as string | undefined;
  const stored = range === undefined ? 0 : Number(/^bytes=0-(\d+)$/.exec(range)![1]) + 1;
  const part = readFileSync(join(svc.dataDir, 'sessions', `${id}.part`));
  assert.equal(part.length, stored, 'the range covers exactly the part file');
  assert.ok(part.equals(data.subarray(0, stored)), 'the part file is a true prefix of the upload');
  return stored;
}

async function finish(uri: string, data: Buffer, from: number) {
  const r = await svc.api('PUT', uri, {
    token: null,
    body: data.subarray(from),
    headers: { 'Content-Range': `bytes ${from}-${data.length - 1}/${data.length}` },
  });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json().md5Checksum, md5(data));
  const down = await svc.api('GET', `/store/v3/files/${r.json().id}?alt=media`);
  assert.ok(down.body.equals(data), 'the stored file is byte-identical');
}

function assertRetryable(r: { status: number; headers: Record<string, unknown>; text: string }, what: RegExp) {
  assert.equal(r.status, 503, r.text);
  assert.equal(r.headers['retry-after'], '5');
  assert.match(r.text, what);
}

describe('disk faults', () => {
  for (const error of ['ENOSPC', 'EDQUOT', 'EFBIG', 'EIO']) {
    it(`${error} mid-body: 503, the session keeps the whole blocks written, then completes byte-identical`, async () => {
      const data = bytesOf(BLOCK * 8 + 777, error.length);
      const { uri, id } = await startSession();
      // Not on a block boundary: the write of block 4 comes up short, then fails.
      await fault({ type: 'disk', error, afterBytes: BLOCK * 3 + 1000 });
      const put = await svc.api('PUT', uri, { token: null, body: data });
      assertRetryable(put, new RegExp(error));
      assert.equal(await storedMatchesDisk(uri, id, data), BLOCK * 3);
      await finish(uri, data, BLOCK * 3);
    });
  }

  it('a chunk that fails after a kept chunk keeps the first chunk', async () => {
    const data = bytesOf(BLOCK * 6, 9);
    const { uri, id } = await startSession();
    const first = await svc.api('PUT', uri, {
      token: null,
      body: data.subarray(0, BLOCK * 2),
      headers: { 'Content-Range': `bytes 0-${BLOCK * 2 - 1}/${data.length}` },
    });
    assert.equal(first.status, 308);
    await fault({ type: 'disk', error: 'ENOSPC', afterBytes: BLOCK / 2 });
    const second = await svc.api('PUT', uri, {
      token: null,
      body: data.subarray(BLOCK * 2),
      headers: { 'Content-Range': `bytes ${BLOCK * 2}-${data.length - 1}/${data.length}` },
    });
    assertRetryable(second, /out of storage space/);
    assert.equal(await storedMatchesDisk(uri, id, data), BLOCK * 2);
    await finish(uri, data, BLOCK * 2);
  });

  it('a simple upload on a full disk stores nothing', async () => {
    const before = (await svc.api('GET', '/store/v3/files')).json().files.length;
    await fault({ type: 'disk', error: 'ENOSPC', afterBytes: 1000 }, { method: 'POST', uploadType: 'media' });
    const r = await svc.api('POST', '/upload/store/v3/files?uploadType=media', {
      body: bytesOf(BLOCK * 2),
      headers: { 'Content-Type': 'application/octet-stream' },
    });
    assertRetryable(r, /ENOSPC/);
    assert.equal((await svc.api('GET', '/store/v3/files')).json().files.length, before, 'no half file is listed');
  });

  it('a slow disk takes size ÷ rate: no less, and not half as long again', async () => {
    const data = bytesOf(BLOCK * 4, 5);
    const { uri } = await startSession();
    const rate = 1024 * 1024;
    await fault({ type: 'slowDisk', bytesPerSecond: rate });
    const t0 = performance.now();
    const put = await svc.api('PUT', uri, { token: null, body: data });
    const took = performance.now() - t0;
    assert.equal(put.status, 200, put.text);
    const floor = (data.length / rate) * 1000;
    assert.ok(took >= floor, `the write took ${took} ms, under the slow disk's ${floor}`);
    // Room for a loaded machine (late timers, the upload itself); a disk at half the rate would take twice as long.
    assert.ok(took <= floor * 1.5, `the write took ${took} ms, the slow disk allows ${floor}`);
  });

  it('refuses a fault it does not know, saying why', async () => {
    const r = await svc.api('POST', '/__admin/faults', {
      token: null,
      body: { action: { type: 'disk', error: 'EX' } },
    });
    assert.equal(r.status, 400);
    assert.match(r.text, /action.error must be one of ENOSPC, EDQUOT, EFBIG, EIO/);
    const slow = await svc.api('POST', '/__admin/faults', {
      token: null,
      body: { action: { type: 'slowDisk', bytesPerSecond: 0 } },
    });
    assert.equal(slow.status, 400);
    assert.match(slow.text, /action\.bytesPerSecond must be an integer ≥ 1/);
  });
});

describe('fault matching', () => {
  it('a fault that matches every request leaves the admin calls alone: they list and clear it', async () => {
    await fault({ type: 'status', status: 503 }, {});
    const listed = await svc.api('GET', '/__admin/faults', { token: null });
    assert.equal(listed.status, 200, listed.text);
    assert.equal(listed.json().faults.length, 1, 'the fault is still waiting for a request of the API');
    assert.equal((await svc.api('GET', '/store/v3/about?fields=kind')).status, 503);
    assert.deepEqual((await svc.api('GET', '/__admin/faults', { token: null })).json(), { faults: [] });
  });
});

describe('database faults', () => {
  it('a completion SQLite cannot write: 503, the bytes stay in the session, a retry completes it', async () => {
    const data = bytesOf(BLOCK * 3 + 5, 11);
    const { uri, id } = await startSession();
    await fault({ type: 'sqlite' });
    const put = await svc.api('PUT', uri, { token: null, body: data });
    assertRetryable(put, /SQLITE_FULL/);
    const stored = await storedMatchesDisk(uri, id, data);
    assert.equal(stored, BLOCK * 3, 'the whole blocks of the refused completion are kept');
    await finish(uri, data, stored);
  });

  it('a metadata create SQLite cannot write: 503, nothing listed, reads keep working', async () => {
    const before = (await svc.api('GET', '/store/v3/files')).json().files.length;
    await fault({ type: 'sqlite', error: 'SQLITE_IOERR_WRITE' }, { method: 'POST', pathPrefix: '/store/' });
    const r = await svc.api('POST', '/store/v3/files', { body: { name: 'x' } });
    assertRetryable(r, /could not write/);
    assert.equal((await svc.api('GET', '/store/v3/files')).json().files.length, before);
  });
});

describe('what counts as a storage failure', () => {
  it('a missing file or a broken constraint is not one: only a full or failing disk or database is retryable', async () => {
    const missing = await readFile(join(svc.dataDir, 'no-such-file')).catch((e: unknown) => e);
    assert.equal((missing as NodeJS.ErrnoException).code, 'ENOENT');
    assert.equal(isStorageFailure(missing), false);
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY); INSERT INTO t VALUES (1)');
    let constraint: unknown;
    try {
      db.exec('INSERT INTO t VALUES (1)');
    } catch (e) {
      constraint = e;
    } finally {
      db.close();
    }
    assert.match(String((constraint as NodeJS.ErrnoException).code), /^SQLITE_CONSTRAINT/);
    assert.equal(isStorageFailure(constraint), false);
    assert.equal(isStorageFailure(Object.assign(new Error('full'), { code: 'SQLITE_FULL' })), true);
  });
});
