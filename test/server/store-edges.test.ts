/**
 * Answers of the real service on paths its other tests leave alone: deleting a folder tree for good (a file in two
 * of its folders goes once), queries whose `trashed` terms agree or contradict, an empty condition around "and",
 * metadata with a NUL character or another file's id, an upload that changes `originalFilename`, media sent with the
 * wrong upload type or without a Content-Type, a status query with a body, and an empty list of faults.
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { FOLDER_MIME } from '../../src/protocol/native.ts';
import { type ApiResult, type ServiceHandle, startService } from './helpers/service.ts';

let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

function ok(r: ApiResult, status = 200): ApiResult {
  assert.equal(r.status, status, r.text);
  return r;
}

function badRequest(r: ApiResult): string {
  assert.equal(r.status, 400, r.text);
  return r.json().error.message as string;
}

async function create(body: object): Promise<string> {
  return ok(await svc.api('POST', '/store/v3/files?fields=id', { body })).json().id as string;
}

describe('deleting a folder for good', () => {
  it('takes its whole tree, once per file, and leaves what lies outside it', async () => {
    const start = ok(await svc.api('GET', '/store/v3/changes/startPageToken')).json().startPageToken as string;
    const top = await create({ name: 'top', mimeType: FOLDER_MIME });
    const inner = await create({ name: 'inner', mimeType: FOLDER_MIME, parents: [top] });
    const leaf = await create({ name: 'leaf.txt', parents: [inner] });
    // In both folders of the tree: it must go once.
    const twice = await create({ name: 'twice.txt', parents: [top, inner] });
    const outside = await create({ name: 'outside', mimeType: FOLDER_MIME });
    const kept = await create({ name: 'kept.txt', parents: [outside] });

    ok(await svc.api('DELETE', `/store/v3/files/${top}`), 204);

    for (const id of [top, inner, leaf, twice]) {
      assert.equal((await svc.api('GET', `/store/v3/files/${id}`)).status, 404, id);
    }
    for (const id of [outside, kept]) ok(await svc.api('GET', `/store/v3/files/${id}`));
    const changes = ok(await svc.api('GET', `/store/v3/changes?pageToken=${start}&pageSize=100`)).json();
    const removed = (changes.changes as { fileId: string; removed: boolean }[])
      .filter((c) => c.removed)
      .map((c) => c.fileId)
      .sort();
    assert.deepEqual(removed, [top, inner, leaf, twice].sort());
  });
});

describe('queries', () => {
  it('lists nothing when its trashed terms contradict, and what matches when they agree', async () => {
    const id = await create({ name: 'query-trashed.txt' });
    const q = (s: string) => `/store/v3/files?fields=files(id)&q=${encodeURIComponent(s)}`;
    const ids = (r: ApiResult) => (ok(r).json().files as { id: string }[]).map((f) => f.id);
    assert.ok(ids(await svc.api('GET', q('trashed = false'))).includes(id));
    assert.ok(ids(await svc.api('GET', q('trashed = false and trashed = false'))).includes(id));
    assert.deepEqual(ids(await svc.api('GET', q('trashed = false and trashed = true'))), []);
    assert.deepEqual(
      ids(await svc.api('GET', q("name = 'query-trashed.txt' and trashed = true and trashed = false"))),
      [],
    );
  });

  it('refuses an empty condition around "and", quoting the query', async () => {
    const q = "name = 'a.txt' and ";
    const message = badRequest(await svc.api('GET', `/store/v3/files?q=${encodeURIComponent(q)}`));
    assert.equal(message, `Invalid query "${q}": empty condition around "and".`);
  });
});

describe('file metadata', () => {
  it('refuses a field with the NUL character, naming the field', async () => {
    const message = badRequest(await svc.api('POST', '/store/v3/files', { body: { name: 'a\u0000b.txt' } }));
    assert.equal(message, 'The file field "name" must not contain the NUL character (U+0000).');
  });

  it("refuses an update whose metadata carries another file's id", async () => {
    const id = await create({ name: 'mine.txt' });
    const message = badRequest(await svc.api('PATCH', `/store/v3/files/${id}`, { body: { id: 'someone-else' } }));
    assert.equal(message, `The id in the metadata (someone-else) does not match the file ${id}.`);
    const same = ok(
      await svc.api('PATCH', `/store/v3/files/${id}?fields=id,name`, { body: { id, name: 'mine-2.txt' } }),
    );
    assert.deepEqual(same.json(), { id, name: 'mine-2.txt' });
  });

  it('an upload that updates content takes originalFilename from its metadata', async () => {
    const id = await create({ name: 'renamed-original.txt', originalFilename: 'first.txt' });
    const body =
      '--b0undary\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n{"originalFilename":"second.txt"}\r\n' +
      '--b0undary\r\nContent-Type: text/plain\r\n\r\nnew bytes\r\n--b0undary--';
    const r = ok(
      await svc.api('PATCH', `/upload/store/v3/files/${id}?uploadType=multipart&fields=name,originalFilename,size`, {
        headers: { 'Content-Type': 'multipart/related; boundary=b0undary' },
        body,
      }),
    );
    assert.deepEqual(r.json(), { name: 'renamed-original.txt', originalFilename: 'second.txt', size: '9' });
    const read = ok(await svc.api('GET', `/store/v3/files/${id}?fields=originalFilename`));
    assert.deepEqual(read.json(), { originalFilename: 'second.txt' });
  });
});

describe('media uploads', () => {
  it('refuses a multipart body sent as uploadType=media, naming the type to use', async () => {
    const message = badRequest(
      await svc.api('POST', '/upload/store/v3/files?uploadType=media', {
        headers: { 'Content-Type': 'multipart/related; boundary=xyz' },
        body: '--xyz--',
      }),
    );
    assert.equal(message, 'uploadType=media sends the raw bytes; a multipart/related body needs uploadType=multipart.');
  });

  it('refuses uploadType=multipart without a Content-Type, saying none was sent', async () => {
    const message = badRequest(
      await svc.api('POST', '/upload/store/v3/files?uploadType=multipart', { body: Buffer.from('bytes') }),
    );
    assert.equal(message, 'uploadType=multipart needs Content-Type multipart/related; got none.');
  });

  it('refuses a status query whose streamed body is not empty, and answers the empty one', async () => {
    const start = ok(
      await svc.api('POST', '/upload/store/v3/files?uploadType=resumable', { body: { name: 'status.bin' } }),
    );
    const location = start.headers.location as string;
    const withBody = await svc.api('PUT', location, {
      headers: { 'Content-Range': 'bytes */10' },
      body: Readable.from([Buffer.from('not empty')]),
    });
    assert.equal(withBody.status, 400, withBody.text);
    // The upload protocol answers in plain text.
    assert.match(withBody.text, /^A status query \(Content-Range: bytes \*\/10\) must have an empty body\./);
    const status = await svc.api('PUT', location, {
      headers: { 'Content-Range': 'bytes */10' },
      body: Readable.from([]),
    });
    assert.equal(status.status, 308, status.text);
  });
});

describe('admin', () => {
  it('schedules an empty list of faults as no fault at all', async () => {
    const r = ok(await svc.api('POST', '/__admin/faults', { token: null, body: [] }));
    assert.deepEqual(r.json(), { faults: [] });
    ok(await svc.api('GET', '/store/v3/about?fields=user'));
  });
});
