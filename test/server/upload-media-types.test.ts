/**
 * The MIME type an upload names for its bytes (spec §4: "if neither this nor the metadata gives a type, the object
 * is served as application/octet-stream"): an X-Upload-Content-Type that carries only parameters names no type,
 * so the session starts and the file is application/octet-stream, its bytes served back under that type. A multipart
 * type on a media upload is refused, naming the uploadType it needs.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ServiceHandle, startService } from './helpers/service.ts';

let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

const BYTES = 'bytes of no named type\n';

async function storedType(id: string): Promise<{ mimeType: string; served: string | undefined; text: string }> {
  const meta = await svc.api('GET', `/store/v3/files/${id}?fields=mimeType`);
  assert.equal(meta.status, 200, meta.text);
  const media = await svc.api('GET', `/store/v3/files/${id}?alt=media`);
  assert.equal(media.status, 200, media.text);
  return {
    mimeType: (meta.json() as { mimeType: string }).mimeType,
    served: media.headers['content-type'] as string | undefined,
    text: media.text,
  };
}

describe('a type header with parameters and no type', () => {
  it('X-Upload-Content-Type: the session starts and the file is application/octet-stream', async () => {
    const started = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable', {
      body: { name: 'no-type-resumable' },
      headers: { 'X-Upload-Content-Type': '; charset=utf-8' },
    });
    assert.equal(started.status, 200, started.text);
    const done = await svc.api('PUT', started.headers.location as string, { token: null, body: BYTES });
    assert.equal(done.status, 200, done.text);
    const stored = await storedType((done.json() as { id: string }).id);
    assert.deepEqual(stored, { mimeType: 'application/octet-stream', served: 'application/octet-stream', text: BYTES });
  });
});

describe('a multipart type on a media upload', () => {
  it('uploadType=media with a multipart body is a 400 that says to use uploadType=multipart, and makes no file', async () => {
    const before = await svc.api('GET', '/store/v3/files?fields=files(id)');
    const r = await svc.api('POST', '/upload/store/v3/files?uploadType=media', {
      body: '--b\r\nContent-Type: text/plain\r\n\r\nhello\r\n--b--\r\n',
      headers: { 'Content-Type': 'multipart/related; boundary=b' },
    });
    assert.equal(r.status, 400, r.text);
    assert.equal(
      (r.json() as { error: { message: string } }).error.message,
      'uploadType=media sends the raw bytes; a multipart/related body needs uploadType=multipart.',
    );
    assert.deepEqual((await svc.api('GET', '/store/v3/files?fields=files(id)')).json(), before.json());
  });
});

describe("a multipart upload's media part type", () => {
  /** A multipart/related body: the metadata, then the media part with these header lines. */
  const multipart = (metadata: object, mediaHeaders: string): string =>
    `--b\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(metadata)}\r\n` +
    `--b\r\n${mediaHeaders}\r\n${BYTES}\r\n--b--\r\n`;
  const post = (body: string) =>
    svc.api('POST', '/upload/store/v3/files?uploadType=multipart', {
      body,
      headers: { 'Content-Type': 'multipart/related; boundary=b' },
    });

  it('one that is no MIME type is a 400 naming it, and makes no file — converting or not', async () => {
    const before = await svc.api('GET', '/store/v3/files?fields=files(id)');
    for (const metadata of [
      { name: 'garbled-part' },
      { name: 'garbled-converting', mimeType: 'application/vnd.svc-apps.spreadsheet' },
    ]) {
      const r = await post(multipart(metadata, 'Content-Type: not a type\r\n'));
      assert.equal(r.status, 400, r.text);
      assert.equal(
        (r.json() as { error: { message: string } }).error.message,
        `The media part's Content-Type header "not a type" is not a MIME type (type/subtype).`,
      );
    }
    assert.deepEqual((await svc.api('GET', '/store/v3/files?fields=files(id)')).json(), before.json());
  });

  it("one that is absent or blank takes the metadata's type; a named one is the file's when the metadata names none", async () => {
    const cases: [string, object, string][] = [
      ['', { name: 'no-part-type', mimeType: 'text/csv' }, 'text/csv'],
      ['Content-Type: \r\n', { name: 'blank-part-type' }, 'application/octet-stream'],
      ['Content-Type: Text/Plain; charset=utf-8\r\n', { name: 'named-part-type' }, 'text/plain'],
    ];
    for (const [headers, metadata, mimeType] of cases) {
      const r = await post(multipart(metadata, headers));
      assert.equal(r.status, 200, r.text);
      const stored = await storedType((r.json() as { id: string }).id);
      assert.equal(stored.mimeType, mimeType, JSON.stringify(metadata));
      assert.equal(stored.text, BYTES);
    }
  });
});
