/**
 * Conversion (import to a native document) when storage fails, through the `--admin` storage faults: the disk
 * fills while the converted content is written, or SQLite cannot write the converted file's row. The answer is the
 * readable, retryable `503` of every storage failure; no file is listed, no content (source or half-converted) is left;
 * a multipart upload sent again converts, and a resumable session stays open with its whole blocks (as for any
 * refused completion), so the client resumes from the range its status query reports and the conversion completes.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type ApiResult, type ServiceHandle, startService } from './helpers/service.ts';

const DOC = 'application/vnd.svc-apps.document';
/** Over one 256 KiB block, so a session has whole blocks to keep. */
const TEXT = `Full disk, converted later.\n${'Second line.\n'.repeat(25_000)}`;
const BLOCK = 256 * 1024;
let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

async function fault(action: object, match: object): Promise<void> {
  const r = await svc.api('POST', '/__admin/faults', { token: null, body: { match, action } });
  assert.equal(r.status, 200, r.text);
}

/** The disk takes the received text, then is full: the converted content is the first write refused. */
const fullAfterSource = { type: 'disk', error: 'ENOSPC', afterBytes: Buffer.byteLength(TEXT) };

function multipart(name: string): Promise<ApiResult> {
  const b = 'full_disk_b';
  const body = `--${b}\r\nContent-Type: application/json\r\n\r\n${JSON.stringify({ name, mimeType: DOC })}\r\n--${b}\r\nContent-Type: text/plain\r\n\r\n${TEXT}\r\n--${b}--`;
  return svc.api('POST', '/upload/store/v3/files?uploadType=multipart&fields=id,mimeType', {
    headers: { 'Content-Type': `multipart/related; boundary=${b}` },
    body,
  });
}

async function startSession(name: string): Promise<string> {
  const r = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable', {
    headers: { 'X-Upload-Content-Type': 'text/plain', 'X-Upload-Content-Length': String(Buffer.byteLength(TEXT)) },
    body: { name, mimeType: DOC },
  });
  assert.equal(r.status, 200, r.text);
  return r.headers.location as string;
}

function assertStorageFailure(r: ApiResult, what: RegExp): void {
  assert.equal(r.status, 503, r.text);
  assert.equal(r.headers['content-type'], 'application/json; charset=UTF-8');
  assert.equal(r.headers['retry-after'], '5');
  assert.equal(r.json().error.errors[0].reason, 'backendError');
  assert.match(r.json().error.message, what);
}

async function listed(name: string): Promise<number> {
  const q = encodeURIComponent(`name = '${name}'`);
  return (await svc.api('GET', `/store/v3/files?q=${q}`)).json().files.length;
}

/** Stored content and temp files on disk: a refused conversion must leave as many as before it. */
const onDisk = () => ({
  content: readdirSync(join(svc.dataDir, 'content')).length,
  tmp: readdirSync(join(svc.dataDir, 'tmp')).length,
});

async function assertConverted(r: ApiResult): Promise<void> {
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json().mimeType, DOC);
  const out = await svc.api('GET', `/store/v3/files/${r.json().id}/export?mimeType=text%2Fplain`);
  assert.equal(out.status, 200, out.text);
  assert.match(out.text, /Full disk, converted later\.\s+Second line\./);
}

describe('conversion when storage fails', () => {
  it('a full disk while the converted content is written: 503, nothing listed or left, and a resend converts', async () => {
    const disk = onDisk();
    await fault(fullAfterSource, { method: 'POST', uploadType: 'multipart' });
    const r = await multipart('m-disk');
    assertStorageFailure(r, /out of storage space \(ENOSPC\)/);
    assert.equal(await listed('m-disk'), 0, 'no half-converted file is listed');
    assert.deepEqual(onDisk(), disk, 'neither the source nor a part of the converted content is left');
    await assertConverted(await multipart('m-disk'));
    assert.deepEqual(
      onDisk(),
      { ...disk, content: disk.content + 1 },
      'the converted content only: its source is gone',
    );
  });

  it("SQLite full at the converted file's commit: 503, nothing listed or left", async () => {
    const disk = onDisk();
    await fault({ type: 'sqlite', error: 'SQLITE_FULL' }, { method: 'POST', uploadType: 'multipart' });
    assertStorageFailure(await multipart('m-sql'), /out of storage space \(SQLITE_FULL\)/);
    assert.equal(await listed('m-sql'), 0);
    assert.deepEqual(onDisk(), disk);
  });

  for (const [what, action] of [
    ['a full disk', fullAfterSource],
    ['SQLite full', { type: 'sqlite', error: 'SQLITE_FULL' }],
  ] as const) {
    it(`${what} at a resumable conversion: 503, the session keeps its whole blocks, and the upload resumes from them`, async () => {
      const name = `r-${action.type}`;
      const uri = await startSession(name);
      const disk = onDisk();
      await fault(action, { method: 'PUT', uploadType: 'resumable' });
      const put = await svc.api('PUT', uri, { token: null, headers: { 'Content-Type': 'text/plain' }, body: TEXT });
      assertStorageFailure(put, /out of storage space/);
      assert.equal(await listed(name), 0);
      assert.deepEqual(onDisk(), disk, 'the bytes went back to the session, no stored content is left');
      const bytes = Buffer.from(TEXT);
      const status = await svc.api('PUT', uri, {
        token: null,
        body: '',
        headers: { 'Content-Range': `bytes */${bytes.length}` },
      });
      // The session is still open, holding its whole 256 KiB blocks: the client resumes from there.
      assert.equal(status.status, 308, status.text);
      const range = status.headers.range as string | undefined;
      const from = range === undefined ? 0 : Number(/^bytes=0-(\d+)$/.exec(range)![1]) + 1;
      assert.equal(from, BLOCK);
      const rest = await svc.api('PUT', uri, {
        token: null,
        body: bytes.subarray(from),
        headers: { 'Content-Range': `bytes ${from}-${bytes.length - 1}/${bytes.length}` },
      });
      await assertConverted(rest);
      assert.equal(await listed(name), 1);
    });
  }
});
