/**
 * The per-user storage quota (`--storage-quota`, `/__admin/storage-quota`, `about.storageQuota`): an upload that
 * would pass the limit is refused with 403 `storageQuotaExceeded` where it commits (and at a resumable start whose
 * declared size cannot fit), keeping nothing; a file counts once, a replaced file's old bytes and a deleted file's
 * bytes are freed, and `about` reports usage and limit as they are.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { bytesOf } from './helpers/bytes.ts';
import { type ApiResult, type ServiceHandle, startService } from './helpers/service.ts';

const LIMIT = 1000;
const BLOCK = 256 * 1024;
const OCTETS = 'application/octet-stream';
let svc: ServiceHandle;
before(async () => {
  svc = await startService({ args: ['--storage-quota', String(LIMIT)] });
});
after(() => svc.stop());

async function setLimit(limit: number | null): Promise<void> {
  const r = await svc.api('PUT', '/__admin/storage-quota', { token: null, body: { limit } });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.json(), { limit });
}

async function quotaOf(token = 'dev-token-alice'): Promise<{ limit?: string; usage: string }> {
  const r = await svc.api('GET', '/store/v3/about?fields=storageQuota(limit,usage)', { token });
  assert.equal(r.status, 200, r.text);
  return r.json().storageQuota;
}

/** Deletes every file alice owns, so each test starts from a usage of 0. */
async function emptyAlice(): Promise<void> {
  const list = (await svc.api('GET', '/store/v3/files?fields=files(id)')).json().files as { id: string }[];
  for (const f of list) assert.equal((await svc.api('DELETE', `/store/v3/files/${f.id}`)).status, 204);
}

const simple = (size: number, token = 'dev-token-alice') =>
  svc.api('POST', '/upload/store/v3/files?uploadType=media&fields=id,size', {
    token,
    headers: { 'Content-Type': OCTETS },
    body: bytesOf(size, size),
  });

const replace = (id: string, size: number) =>
  svc.api('PUT', `/upload/store/v3/files/${id}?uploadType=media&fields=id,size`, {
    headers: { 'Content-Type': OCTETS },
    body: bytesOf(size, size + 1),
  });

function multipart(size: number): Promise<ApiResult> {
  const b = 'quota_b';
  const body = Buffer.concat([
    Buffer.from(`--${b}\r\nContent-Type: application/json\r\n\r\n{"name":"m.bin"}\r\n--${b}\r\n\r\n`),
    bytesOf(size, 7),
    Buffer.from(`\r\n--${b}--`),
  ]);
  return svc.api('POST', '/upload/store/v3/files?uploadType=multipart&fields=id,size', {
    headers: { 'Content-Type': `multipart/related; boundary=${b}` },
    body,
  });
}

function assertQuotaExceeded(r: ApiResult): void {
  assert.equal(r.status, 403, r.text);
  assert.match(String(r.headers['content-type']), /^application\/json/);
  const e = r.json().error;
  assert.equal(e.code, 403);
  assert.equal(e.errors[0].reason, 'storageQuotaExceeded');
  assert.equal(e.errors[0].domain, 'usageLimits');
  assert.match(e.message, /storage quota has been exceeded/);
}

const contentCount = () => readdirSync(join(svc.dataDir, 'content')).length;

async function startSession(headers: Record<string, string> = {}): Promise<ApiResult> {
  return svc.api('POST', '/upload/store/v3/files?uploadType=resumable', { body: { name: 'r.bin' }, headers });
}

describe('storage quota', () => {
  beforeEach(async () => {
    await setLimit(LIMIT);
    await emptyAlice();
  });

  it('about reports the limit set by --storage-quota and the usage of what is stored', async () => {
    assert.deepEqual(await quotaOf(), { limit: String(LIMIT), usage: '0' });
    assert.equal((await simple(600)).status, 200);
    assert.deepEqual(await quotaOf(), { limit: String(LIMIT), usage: '600' });
    // Per user: bob's usage is his own.
    assert.equal((await quotaOf('dev-token-bob')).usage, '0');
  });

  it('refuses a simple or multipart upload that would pass the limit, keeping nothing', async () => {
    assert.equal((await simple(600)).status, 200);
    const stored = contentCount();
    assertQuotaExceeded(await simple(401));
    assertQuotaExceeded(await multipart(401));
    assert.equal(contentCount(), stored, 'no content of a refused upload is left');
    const names = (await svc.api('GET', '/store/v3/files?fields=files(size)')).json().files;
    assert.deepEqual(names, [{ size: '600' }], 'no refused file is listed');
    assert.equal((await quotaOf()).usage, '600');
    // Up to the limit exactly is allowed.
    assert.equal((await multipart(400)).status, 200);
    assert.equal((await quotaOf()).usage, String(LIMIT));
  });

  it("a replaced file's bytes and a deleted file's bytes are freed", async () => {
    const f = (await simple(600)).json();
    const r = await replace(f.id, 900);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json().size, '900');
    assert.equal((await quotaOf()).usage, '900', 'the replaced 600 bytes no longer count');
    assertQuotaExceeded(await replace(f.id, 1001));
    const kept = await svc.api('GET', `/store/v3/files/${f.id}?alt=media`);
    assert.equal(kept.body.length, 900, 'a refused replacement keeps the old content');
    assert.equal((await svc.api('DELETE', `/store/v3/files/${f.id}`)).status, 204);
    assert.equal((await quotaOf()).usage, '0');
    assert.equal((await simple(LIMIT)).status, 200, 'the deleted bytes are free again');
  });

  it('a resumable start whose declared size cannot fit is refused before any byte', async () => {
    assert.equal((await simple(600)).status, 200);
    assertQuotaExceeded(await startSession({ 'X-Upload-Content-Length': '401' }));
    assert.equal((await startSession({ 'X-Upload-Content-Length': '400' })).status, 200);
  });

  it("a resumable replacement's declared size is judged with the old content freed", async () => {
    const f = (await simple(600)).json();
    // 900 bytes in place of 600: 900 of 1000 once the old bytes go, though 600 + 900 would not fit.
    const r = await svc.api('PATCH', `/upload/store/v3/files/${f.id}?uploadType=resumable`, {
      headers: { 'X-Upload-Content-Length': '900' },
    });
    assert.equal(r.status, 200, r.text);
    const over = await svc.api('PATCH', `/upload/store/v3/files/${f.id}?uploadType=resumable`, {
      headers: { 'X-Upload-Content-Length': '1001' },
    });
    assertQuotaExceeded(over);
  });

  it('a resumable upload is refused at its last byte when it would pass the limit, and its bytes are removed', async () => {
    assert.equal((await simple(600)).status, 200);
    const uri = (await startSession()).headers.location as string;
    const stored = contentCount();
    const r = await svc.api('PUT', uri, {
      token: null,
      body: bytesOf(401, 3),
      headers: { 'Content-Range': 'bytes 0-400/401' },
    });
    assertQuotaExceeded(r);
    assert.equal(contentCount(), stored);
    assert.deepEqual(
      readdirSync(join(svc.dataDir, 'sessions')).filter((n) => n.endsWith('.part')),
      [],
    );
    assert.equal((await quotaOf()).usage, '600');
    const again = await svc.api('PUT', uri, { token: null, body: '', headers: { 'Content-Range': 'bytes */401' } });
    assert.equal(again.status, 404, 'the refused session is over: the client is not led into retrying it');
  });

  it('a resumable upload in chunks counts once, and a repeated final chunk adds nothing', async () => {
    await setLimit(3 * BLOCK);
    const size = 2 * BLOCK + 5;
    const data = bytesOf(size, 11);
    const uri = (await startSession({ 'X-Upload-Content-Length': String(size) })).headers.location as string;
    const first = await svc.api('PUT', uri, {
      token: null,
      body: data.subarray(0, BLOCK),
      headers: { 'Content-Range': `bytes 0-${BLOCK - 1}/${size}` },
    });
    assert.equal(first.status, 308, first.text);
    assert.equal((await quotaOf()).usage, '0', 'bytes of an open session do not count yet');
    const last = { 'Content-Range': `bytes ${BLOCK}-${size - 1}/${size}` };
    const done = await svc.api('PUT', uri, { token: null, body: data.subarray(BLOCK), headers: last });
    assert.equal(done.status, 200, done.text);
    const repeat = await svc.api('PUT', uri, { token: null, body: data.subarray(BLOCK), headers: last });
    assert.equal(repeat.status, 200, repeat.text);
    assert.equal(repeat.json().id, done.json().id);
    assert.equal((await quotaOf()).usage, String(size));
  });

  it('two uploads racing each other are both counted: one of them is refused', async () => {
    const answers = await Promise.all([multipart(600), simple(600)]);
    assert.deepEqual(answers.map((r) => r.status).sort(), [200, 403]);
    assertQuotaExceeded(answers.find((r) => r.status === 403)!);
    assert.equal((await quotaOf()).usage, '600');
  });

  it('the admin call changes the limit at run time; null removes it', async () => {
    await setLimit(null);
    assert.equal((await quotaOf()).limit, undefined, 'no limit: none reported');
    assert.equal((await simple(5000)).status, 200);
    await setLimit(100);
    assertQuotaExceeded(await simple(1));
    // Over a lowered limit, a file may still shrink.
    const id = (await svc.api('GET', '/store/v3/files?fields=files(id)')).json().files[0].id as string;
    assert.equal((await replace(id, 50)).status, 200);
    const bad = await svc.api('PUT', '/__admin/storage-quota', { token: null, body: { limit: -1 } });
    assert.equal(bad.status, 400, bad.text);
  });
});
