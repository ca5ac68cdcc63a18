/**
 * `GET /store/v3/files/<id>?alt=media` (`server/handlers/download.ts`, spec §4.8): a file's bytes with the headers a
 * browser and a resuming client rely on (its type, `Accept-Ranges`, an attachment named in UTF-8, the MD5 as ETag),
 * one byte range as a 206, a range past the end as a 416 saying the size, a cache's If-None-Match as a 304 and a
 * resumed download's If-Range as its range only of the same content, and a folder or a native document refused
 * with 403 fileNotDownloadable pointing at `alt`. A native document made without content exports as an empty one.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { MESSAGES } from 'store-upload-kit/protocol';
import { type ServiceHandle, startService } from './helpers/service.ts';

let svc: ServiceHandle;
let id: string;
const CONTENT = Buffer.from('0123456789abcdefghij'.repeat(50));
const NAME = 'résumé 2026 #1.txt';

before(async () => {
  svc = await startService();
  const boundary = 'dl';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Type: application/json\r\n\r\n${JSON.stringify({ name: NAME })}\r\n` +
        `--${boundary}\r\nContent-Type: text/plain\r\n\r\n`,
    ),
    CONTENT,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const r = await svc.api('POST', '/upload/store/v3/files?uploadType=multipart&fields=id', {
    body,
    headers: { 'Content-Type': `multipart/related; boundary=${boundary}` },
  });
  assert.equal(r.status, 200, r.text);
  id = (r.json() as { id: string }).id;
});
after(() => svc.stop());

interface ErrorBody {
  error: { code: number; message: string; errors: { reason: string; location?: string; locationType?: string }[] };
}

describe('download', () => {
  it('answers the bytes with their type, ranges accepted, an attachment named in UTF-8 and the MD5 as ETag', async () => {
    const r = await svc.api('GET', `/store/v3/files/${id}?alt=media`);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, CONTENT);
    assert.equal(r.headers['content-type'], 'text/plain');
    assert.equal(r.headers['accept-ranges'], 'bytes');
    assert.equal(r.headers['content-length'], String(CONTENT.length));
    assert.equal(r.headers['content-disposition'], `attachment; filename*=UTF-8''${encodeURIComponent(NAME)}`);
    assert.equal(r.headers.etag, `"${createHash('md5').update(CONTENT).digest('hex')}"`);
  });

  it('answers one range as a 206 with its Content-Range and length', async () => {
    const r = await svc.api('GET', `/store/v3/files/${id}?alt=media`, { headers: { Range: 'bytes=10-29' } });
    assert.equal(r.status, 206, r.text);
    assert.deepEqual(r.body, CONTENT.subarray(10, 30));
    assert.equal(r.headers['content-range'], `bytes 10-29/${CONTENT.length}`);
    assert.equal(r.headers['content-length'], '20');
  });

  it('answers a cache that holds this content (If-None-Match, weak or strong, or *) with a bare 304', async () => {
    const etag = `"${createHash('md5').update(CONTENT).digest('hex')}"`;
    for (const condition of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const r = await svc.api('GET', `/store/v3/files/${id}?alt=media`, { headers: { 'If-None-Match': condition } });
      assert.equal(r.status, 304, condition);
      assert.equal(r.body.length, 0, condition);
      assert.equal(r.headers.etag, etag, condition);
    }
    const stale = await svc.api('GET', `/store/v3/files/${id}?alt=media`, { headers: { 'If-None-Match': '"other"' } });
    assert.equal(stale.status, 200);
    assert.deepEqual(stale.body, CONTENT);
  });

  it('resumes a download with If-Range only from the same content; another tag or a date gets the whole file', async () => {
    const etag = `"${createHash('md5').update(CONTENT).digest('hex')}"`;
    const same = await svc.api('GET', `/store/v3/files/${id}?alt=media`, {
      headers: { Range: 'bytes=10-29', 'If-Range': etag },
    });
    assert.equal(same.status, 206);
    assert.deepEqual(same.body, CONTENT.subarray(10, 30));
    for (const other of ['"d41d8cd98f00b204e9800998ecf8427e"', `W/${etag}`, 'Sun, 29 Nov 2026 10:00:00 GMT']) {
      const r = await svc.api('GET', `/store/v3/files/${id}?alt=media`, {
        headers: { Range: 'bytes=10-29', 'If-Range': other },
      });
      assert.equal(r.status, 200, other);
      assert.deepEqual(r.body, CONTENT, other);
      assert.equal(r.headers['content-range'], undefined, other);
    }
  });

  it('answers a range past the end with a 416 saying the size', async () => {
    const r = await svc.api('GET', `/store/v3/files/${id}?alt=media`, { headers: { Range: 'bytes=5000-' } });
    assert.equal(r.status, 416, r.text);
    assert.equal(r.headers['content-range'], `bytes */${CONTENT.length}`);
    const body = r.json() as ErrorBody;
    assert.equal(body.error.errors[0]?.reason, 'requestedRangeNotSatisfiable');
    assert.equal(body.error.message, `The range "bytes=5000-" is outside the content (${CONTENT.length} bytes).`);
  });

  it('answers a file made without bytes, and one of zero bytes, as an empty 200', async () => {
    const metadataOnly = await svc.api('POST', '/store/v3/files?fields=id', {
      body: { name: 'no bytes.txt', mimeType: 'text/plain' },
    });
    const zero = await svc.api('POST', '/upload/store/v3/files?uploadType=media&fields=id', {
      body: '',
      headers: { 'Content-Type': 'text/plain' },
    });
    for (const made of [metadataOnly, zero]) {
      const r = await svc.api('GET', `/store/v3/files/${(made.json() as { id: string }).id}?alt=media`);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers['content-length'], '0');
      assert.equal(r.body.length, 0);
    }
  });

  it('answers a file of zero bytes without reading its stored object: an empty 200 even when that object is gone', async () => {
    const zero = await svc.api('POST', '/upload/store/v3/files?uploadType=media&fields=id', {
      body: '',
      headers: { 'Content-Type': 'text/plain' },
    });
    assert.equal(zero.status, 200, zero.text);
    // Every empty stored object (a data folder that lost them: copied in part, or cleaned by hand).
    const empty = readdirSync(join(svc.dataDir, 'content'), { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name))
      .filter((path) => statSync(path).size === 0);
    assert.ok(empty.length > 0, 'the zero-byte upload stored an empty object');
    for (const path of empty) rmSync(path);
    const r = await svc.api('GET', `/store/v3/files/${(zero.json() as { id: string }).id}?alt=media`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers['content-length'], '0');
    assert.equal(r.body.length, 0);
  });

  it('refuses a folder and a native document with 403 fileNotDownloadable pointing at alt', async () => {
    for (const mimeType of ['application/vnd.svc-apps.folder', 'application/vnd.svc-apps.document']) {
      const made = await svc.api('POST', '/store/v3/files?fields=id', { body: { name: 'not bytes', mimeType } });
      const r = await svc.api('GET', `/store/v3/files/${(made.json() as { id: string }).id}?alt=media`);
      assert.equal(r.status, 403, `${mimeType}: ${r.text}`);
      const body = r.json() as ErrorBody;
      assert.equal(body.error.message, MESSAGES.fileNotDownloadable);
      assert.deepEqual(body.error.errors[0], {
        ...body.error.errors[0],
        reason: 'fileNotDownloadable',
        location: 'alt',
        locationType: 'parameter',
      });
    }
  });

  it('a native document made without content exports as an empty document', async () => {
    const made = await svc.api('POST', '/store/v3/files?fields=id', {
      body: { name: 'blank doc', mimeType: 'application/vnd.svc-apps.document' },
    });
    const r = await svc.api('GET', `/store/v3/files/${(made.json() as { id: string }).id}/export?mimeType=text/plain`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers['content-type']?.toString().split(';')[0], 'text/plain');
  });

  it('an export names the mimeType it needs, and is only for native files', async () => {
    for (const query of ['', '?mimeType=', '?mimeType=%20']) {
      const r = await svc.api('GET', `/store/v3/files/${id}/export${query}`);
      assert.equal(r.status, 400, `${query}: ${r.text}`);
      const body = r.json() as ErrorBody;
      assert.equal(body.error.message, 'Required parameter: mimeType');
      assert.deepEqual(body.error.errors[0], { ...body.error.errors[0], reason: 'required', location: 'mimeType' });
    }
    const r = await svc.api('GET', `/store/v3/files/${id}/export?mimeType=text/plain`);
    assert.equal(r.status, 403, r.text);
    const body = r.json() as ErrorBody;
    assert.equal(
      body.error.message,
      `Export only supports native files; ${id} is text/plain. Download it with alt=media.`,
    );
    assert.deepEqual(body.error.errors[0], {
      ...body.error.errors[0],
      reason: 'fileNotExportable',
      location: 'fileId',
      locationType: 'parameter',
    });
  });
});
