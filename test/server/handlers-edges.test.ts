/**
 * Edges of the route handlers (`server/handlers/`) the conformance suites pass over: a reader cannot file into a
 * folder, downloads carry their ETag, parameters are refused by what is wrong with them, a media PUT on a folder is
 * refused before its body, and the metadata part of an upload is held to `maxJsonBytes`. Each check failed once
 * against a planted mutant of the line it guards (issue 39).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { openRaw, statuses } from './helpers/raw-http.ts';
import { type ServiceHandle, startService } from './helpers/service.ts';

const MAX_JSON = 4096;
let svc: ServiceHandle;
before(async () => {
  svc = await startService({ config: { maxJsonBytes: MAX_JSON } });
});
after(() => svc.stop());

async function newFolder(name: string): Promise<string> {
  const r = await svc.api('POST', '/store/v3/files', {
    body: { name, mimeType: 'application/vnd.svc-apps.folder' },
  });
  assert.equal(r.status, 200, r.text);
  return r.json<{ id: string }>().id;
}

function errorOf(r: { json<T>(): T }): { message: string; errors: { reason: string; location?: string }[] } {
  return r.json<{ error: { message: string; errors: { reason: string; location?: string }[] } }>().error;
}

describe('writing into a folder', () => {
  it('a reader of a folder cannot create a file in it; a writer can', async () => {
    const folder = await newFolder('shared');
    const grant = await svc.api('POST', `/store/v3/files/${folder}/permissions`, {
      body: { type: 'user', role: 'reader', emailAddress: 'bob@example.com' },
    });
    assert.equal(grant.status, 200, grant.text);
    const asReader = await svc.api('POST', '/store/v3/files', {
      token: 'dev-token-bob',
      body: { name: 'in.txt', parents: [folder] },
    });
    assert.equal(asReader.status, 403, asReader.text);
    const other = await newFolder('shared for writing');
    const write = await svc.api('POST', `/store/v3/files/${other}/permissions`, {
      body: { type: 'user', role: 'writer', emailAddress: 'bob@example.com' },
    });
    assert.equal(write.status, 200, write.text);
    const asWriter = await svc.api('POST', '/store/v3/files', {
      token: 'dev-token-bob',
      body: { name: 'in.txt', parents: [other] },
    });
    assert.equal(asWriter.status, 200, asWriter.text);
  });

  it('a media PUT on a folder is refused before a byte of its body is sent', async () => {
    const folder = await newFolder('no-content');
    const conn = await openRaw(svc.url);
    await conn.write(
      `PUT /upload/store/v3/files/${folder}?uploadType=media HTTP/1.1\r\nHost: x\r\n` +
        `Authorization: Bearer dev-token-alice\r\nContent-Type: text/plain\r\nContent-Length: ${16 * 1024 * 1024}\r\n\r\n`,
    );
    // Waiting for the body instead would wait out the 30 s idle timeout: the answer must come well before it.
    const text = await conn.waitFor((t) => /\r\n\r\n[\s\S]*\}/.test(t), 20_000, 'an answer before the body');
    conn.drop();
    assert.deepEqual(statuses(text), [400]);
    assert.match(text, /A folder cannot have content\./);
  });
});

describe('downloads and exports', () => {
  it('a download carries the content MD5 as its ETag', async () => {
    const bytes = Buffer.from('etag me');
    const up = await svc.api('POST', '/upload/store/v3/files?uploadType=media', {
      headers: { 'Content-Type': 'text/plain' },
      body: bytes,
    });
    assert.equal(up.status, 200, up.text);
    const got = await svc.api('GET', `/store/v3/files/${up.json<{ id: string }>().id}?alt=media`);
    assert.equal(got.status, 200);
    assert.equal(got.headers.etag, `"${createHash('md5').update(bytes).digest('hex')}"`);
  });

  it('an export with a blank mimeType is a 400 asking for it', async () => {
    const made = await svc.api('POST', '/store/v3/files', { body: { name: 'plain.txt' } });
    const r = await svc.api('GET', `/store/v3/files/${made.json<{ id: string }>().id}/export?mimeType=%20`);
    assert.equal(r.status, 400, r.text);
    assert.equal(errorOf(r).message, 'Required parameter: mimeType');
    assert.equal(errorOf(r).errors[0]?.location, 'mimeType');
  });
});

describe('parameters and bodies refused by what is wrong with them', () => {
  it('pageSize must be written as digits: 1e1 is refused though it is an integer', async () => {
    const r = await svc.api('GET', '/store/v3/files?pageSize=1e1');
    assert.equal(r.status, 400, r.text);
    assert.match(errorOf(r).message, /Invalid value '1e1' for pageSize/);
  });

  it('a missing uploadType is asked for; a wrong one is named', async () => {
    const missing = await svc.api('POST', '/upload/store/v3/files', { body: 'x' });
    assert.equal(missing.status, 400);
    assert.equal(
      errorOf(missing).message,
      'The uploadType parameter is required on the upload path: media, multipart or resumable.',
    );
    const wrong = await svc.api('POST', '/upload/store/v3/files?uploadType=bogus', { body: 'x' });
    assert.equal(wrong.status, 400);
    assert.match(errorOf(wrong).message, /^Invalid value 'bogus' for uploadType/);
  });

  it('a user without an e-mail address is refused by POST /__admin/tokens', async () => {
    const r = await svc.api('POST', '/__admin/tokens', { body: { token: 'tok-no-at', user: 'nobody' } });
    assert.equal(r.status, 400, r.text);
  });

  it(`the metadata part of a multipart upload is held to maxJsonBytes (${MAX_JSON})`, async () => {
    const meta = JSON.stringify({ name: 'big.txt', description: 'd'.repeat(MAX_JSON) });
    const body =
      `--b\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n${meta}\r\n` +
      '--b\r\nContent-Type: text/plain\r\n\r\nhello\r\n--b--\r\n';
    const r = await svc.api('POST', '/upload/store/v3/files?uploadType=multipart', {
      headers: { 'Content-Type': 'multipart/related; boundary=b' },
      body,
    });
    assert.equal(r.status, 400, r.text);
    assert.match(errorOf(r).message, new RegExp(`The metadata part exceeds ${MAX_JSON} bytes`));
  });
});

describe('batches', () => {
  it('a batch body over its 16 MiB cap is a 413 before a byte of it is sent', async () => {
    const conn = await openRaw(svc.url);
    await conn.write(
      'POST /batch/store/v3 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer dev-token-alice\r\n' +
        `Content-Type: multipart/mixed; boundary=b\r\nContent-Length: ${17 * 1024 * 1024}\r\n\r\n`,
    );
    const text = await conn.waitFor((t) => /\r\n\r\n[\s\S]*\}/.test(t), 20_000, 'an answer before the body');
    conn.drop();
    assert.deepEqual(statuses(text), [413]);
  });

  it('an inner request naming a full URL is refused, quoting its first 200 characters', async () => {
    const target = `https://example.com/${'p'.repeat(300)}`;
    const body = `--b\r\nContent-Type: application/http\r\n\r\nGET ${target} HTTP/1.1\r\n\r\n\r\n--b--\r\n`;
    const r = await svc.api('POST', '/batch/store/v3', {
      headers: { 'Content-Type': 'multipart/mixed; boundary=b' },
      body,
    });
    assert.match(r.text, new RegExp(`not a full URL: \\\\?"${target.slice(0, 200)}…\\\\?"`));
  });
});

describe('messages and resources the second sample asked about', () => {
  it('a permission that does not exist is a 404 naming it', async () => {
    const made = await svc.api('POST', '/store/v3/files', { body: { name: 'perm.txt' } });
    const r = await svc.api('DELETE', `/store/v3/files/${made.json<{ id: string }>().id}/permissions/nope123`);
    assert.equal(r.status, 404, r.text);
    assert.equal(errorOf(r).message, 'Permission not found: nope123.');
  });

  it('a domain permission names its domain', async () => {
    const made = await svc.api('POST', '/store/v3/files', { body: { name: 'domain.txt' } });
    const r = await svc.api('POST', `/store/v3/files/${made.json<{ id: string }>().id}/permissions`, {
      body: { type: 'domain', role: 'reader', domain: 'example.com' },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json<{ domain?: string }>().domain, 'example.com');
  });

  it('a garbled X-Upload-Content-Type is a 400 naming that header', async () => {
    const r = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable', {
      headers: { 'X-Upload-Content-Type': 'garbled' },
      body: { name: 'garbled.bin' },
    });
    assert.equal(r.status, 400, r.text);
    const error = r.json<{ error: { errors: { location?: string; locationType?: string }[] } }>().error;
    assert.equal(error.errors[0]?.location, 'X-Upload-Content-Type');
    assert.equal(error.errors[0]?.locationType, 'header');
  });

  it('empty entries of addParents are skipped, not taken as an ID', async () => {
    const folder = await newFolder('target');
    const made = await svc.api('POST', '/store/v3/files', { body: { name: 'moved.txt' } });
    const id = made.json<{ id: string }>().id;
    const r = await svc.api('PATCH', `/store/v3/files/${id}?addParents=${folder},,&fields=parents`, { body: {} });
    assert.equal(r.status, 200, r.text);
    assert.ok(r.json<{ parents: string[] }>().parents.includes(folder));
  });

  it('POST /__admin/tokens refuses a token with a space, or a token or user that is not a string', async () => {
    for (const token of ['has space', 5]) {
      const r = await svc.api('POST', '/__admin/tokens', { body: { token, user: 'x@example.com' } });
      assert.equal(r.status, 400, `${String(token)}: ${r.text}`);
    }
    const userNotText = await svc.api('POST', '/__admin/tokens', { body: { token: 'tok-5', user: 5 } });
    assert.equal(userNotText.status, 400, userNotText.text);
  });

  it('POST /__admin/clock refuses a negative, a non-finite or a missing advance', async () => {
    for (const body of [{ advanceMs: -1 }, { advanceMs: '5' }, {}]) {
      const r = await svc.api('POST', '/__admin/clock', { body });
      assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
    }
  });
});
