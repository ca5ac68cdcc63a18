/**
 * Edges of what a file create or update takes (`server/context.ts`'s JSON body, `handlers/incoming-metadata.ts`,
 * `handlers/permissions.ts`, `handlers/receive-media.ts`, `handlers/file-commit.ts`): a create without any body, a
 * field holding NUL, a domain with one-letter labels, the type new content gives a file, and when a multipart
 * upload's media type is judged (before its bytes when the media part names it, after them when it does not). Each
 * check failed once against a planted mutant of the line it guards (issue 39).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openRaw, requestHead, statuses } from './helpers/raw-http.ts';
import { type ApiResult, type ServiceHandle, startService } from './helpers/service.ts';

const DOC = 'application/vnd.svc-apps.document';
const AUTH = { Host: 'x', Authorization: 'Bearer dev-token-alice' };

let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

function errorOf(r: ApiResult): { message: string; errors: { reason: string; location?: string }[] } {
  return r.json<{ error: { message: string; errors: { reason: string; location?: string }[] } }>().error;
}

async function fileOf(id: string): Promise<{ name: string; mimeType: string }> {
  const r = await svc.api('GET', `/store/v3/files/${id}?fields=name,mimeType`);
  assert.equal(r.status, 200, r.text);
  return r.json();
}

describe('a JSON body that is not there (context.ts)', () => {
  it('a metadata create with no body and no Content-Type makes an Untitled file', async () => {
    const r = await svc.api('POST', '/store/v3/files?fields=id,name');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json<{ name: string }>().name, 'Untitled');
  });

  it('an update with no body and no Content-Type changes nothing and succeeds', async () => {
    const made = await svc.api('POST', '/store/v3/files?fields=id', { body: { name: 'kept.txt' } });
    const id = made.json<{ id: string }>().id;
    const r = await svc.api('PATCH', `/store/v3/files/${id}?fields=name`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json<{ name: string }>().name, 'kept.txt');
  });
});

describe('file fields (incoming-metadata.ts)', () => {
  it('a name holding U+0000 is refused, naming the field, and makes no file', async () => {
    const count = async () => (await svc.api('GET', '/store/v3/files?fields=files(id)')).json<{ files: unknown[] }>();
    const before = (await count()).files.length;
    const r = await svc.api('POST', '/store/v3/files', {
      headers: { 'Content-Type': 'application/json' },
      body: '{"name":"nul\\u0000.txt"}',
    });
    assert.equal(r.status, 400, r.text);
    assert.equal(errorOf(r).message, 'The file field "name" must not contain the NUL character (U+0000).');
    assert.equal((await count()).files.length, before);
  });
});

describe('domain grants (permissions.ts)', () => {
  it('a domain whose labels are one character long is a domain name', async () => {
    const made = await svc.api('POST', '/store/v3/files?fields=id', { body: { name: 'short-labels.txt' } });
    const id = made.json<{ id: string }>().id;
    for (const domain of ['x.example.com', 'a.b.io']) {
      const r = await svc.api('POST', `/store/v3/files/${id}/permissions?fields=type,domain`, {
        body: { type: 'domain', role: 'reader', domain },
      });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.json(), { type: 'domain', domain });
    }
  });
});

describe('the type new content gives a file (file-commit.ts)', () => {
  it('a media update without metadata takes the type the bytes came with', async () => {
    const up = await svc.api('POST', '/upload/store/v3/files?uploadType=media&fields=id', {
      headers: { 'Content-Type': 'text/plain' },
      body: 'a,b\n',
    });
    assert.equal(up.status, 200, up.text);
    const id = up.json<{ id: string }>().id;
    const r = await svc.api('PATCH', `/upload/store/v3/files/${id}?uploadType=media&fields=mimeType`, {
      headers: { 'Content-Type': 'text/csv' },
      body: 'a,b\n1,2\n',
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json<{ mimeType: string }>().mimeType, 'text/csv');
    assert.equal((await fileOf(id)).mimeType, 'text/csv');
  });

  it('a multipart update whose metadata names a type keeps that type, not the media part’s', async () => {
    const up = await svc.api('POST', '/upload/store/v3/files?uploadType=media&fields=id', {
      headers: { 'Content-Type': 'text/plain' },
      body: 'notes',
    });
    const id = up.json<{ id: string }>().id;
    const body =
      `--b\r\nContent-Type: application/json\r\n\r\n${JSON.stringify({ mimeType: 'text/markdown' })}\r\n` +
      '--b\r\nContent-Type: text/plain\r\n\r\n# notes\r\n--b--\r\n';
    const r = await svc.api('PATCH', `/upload/store/v3/files/${id}?uploadType=multipart&fields=mimeType`, {
      headers: { 'Content-Type': 'multipart/related; boundary=b' },
      body,
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json<{ mimeType: string }>().mimeType, 'text/markdown');
    assert.equal((await fileOf(id)).mimeType, 'text/markdown');
  });
});

describe('when a multipart upload’s media type is judged (receive-media.ts)', () => {
  it('a media part typed as a native kind is refused before a byte of its media is sent', async () => {
    const conn = await openRaw(svc.url);
    const start =
      `--b\r\nContent-Type: application/json\r\n\r\n${JSON.stringify({ name: 'typed.doc' })}\r\n` +
      `--b\r\nContent-Type: ${DOC}\r\n\r\n`;
    await conn.write(
      requestHead('POST', '/upload/store/v3/files?uploadType=multipart', {
        ...AUTH,
        'Content-Type': 'multipart/related; boundary=b',
        'Content-Length': 16 * 1024 * 1024,
      }) +
        start +
        'the first bytes',
    );
    // Waiting for the body instead would wait out the 30 s idle timeout: the answer must come well before it.
    const text = await conn.waitFor((t) => /\r\n\r\n[\s\S]*\}/.test(t), 20_000, 'an answer before the media');
    conn.drop();
    assert.deepEqual(statuses(text), [400]);
    assert.match(
      text,
      new RegExp(`Media cannot be uploaded with the type ${DOC.replace(/\./g, '\\.')}: it is a native kind`),
    );
  });

  it('a media part without a type takes the metadata’s only once its media has arrived: the connection stays open', async () => {
    const conn = await openRaw(svc.url);
    const media = Buffer.alloc(64 * 1024, 0x61);
    const start =
      `--b\r\nContent-Type: application/json\r\n\r\n${JSON.stringify({ name: 'untyped', mimeType: DOC })}\r\n` +
      '--b\r\n\r\n';
    const end = '\r\n--b--\r\n';
    const length = Buffer.byteLength(start) + media.length + Buffer.byteLength(end);
    await conn.write(
      requestHead('POST', '/upload/store/v3/files?uploadType=multipart', {
        ...AUTH,
        'Content-Type': 'multipart/related; boundary=b',
        'Content-Length': length,
      }) + start,
    );
    await conn.write(media.subarray(0, 1024));
    // Another request's round trip: the first bytes have reached the service, which holds its answer for the media.
    assert.equal((await svc.api('GET', '/store/v3/about?fields=kind')).status, 200);
    assert.equal(conn.received().length, 0, 'no answer before the media has arrived');
    await conn.write(Buffer.concat([media.subarray(1024), Buffer.from(end)]));
    const text = await conn.waitFor((t) => /\r\n\r\n[\s\S]*\}/.test(t), 30_000, 'the answer');
    assert.deepEqual(statuses(text), [400]);
    assert.match(text, /Conversion from application\/vnd\.svc-apps\.document to application\/vnd\.svc-apps\.document/);
    assert.doesNotMatch(text, /^Connection: close/im);
    // The body was read whole, so the connection carries the next request.
    await conn.write(requestHead('GET', '/store/v3/about?fields=kind', AUTH));
    const next = await conn.waitFor((t) => statuses(t).length === 2, 20_000, 'the second answer');
    conn.drop();
    assert.deepEqual(statuses(next), [400, 200]);
  });
});
