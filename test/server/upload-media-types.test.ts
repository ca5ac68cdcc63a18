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
