/**
 * Checks of metadata-only calls against spec §2.1, §4.6 and supplement §2, §4, §7: defaults, folders, moves,
 * trash, version, list paging and `q`, pre-generated IDs, tokens — and the sloppy inputs around them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ServiceHandle, startService } from './helpers/service.ts';

const FOLDER = 'application/vnd.svc-apps.folder';
let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

async function create(meta: object, token = 'dev-token-alice') {
  const r = await svc.api('POST', '/store/v3/files', { token, body: meta });
  assert.equal(r.status, 200, r.text);
  return r.json();
}

describe('create', () => {
  it('an empty body (no Content-Type) creates "Untitled" application/octet-stream', async () => {
    const r = await svc.api('POST', '/store/v3/files');
    assert.equal(r.status, 200, r.text);
    const f = r.json();
    assert.equal(f.name, 'Untitled');
    assert.equal(f.mimeType, 'application/octet-stream');
    assert.equal(f.md5Checksum, 'd41d8cd98f00b204e9800998ecf8427e');
    assert.equal(f.originalFilename, undefined);
  });

  it('a folder has no size or md5Checksum, and cannot take media', async () => {
    const f = await create({ name: 'dir', mimeType: FOLDER });
    assert.equal('size' in f, false);
    assert.equal('md5Checksum' in f, false);
    const r = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable', { body: { mimeType: FOLDER } });
    assert.equal(r.status, 400);
    assert.equal(r.json().error.message, 'A folder cannot have content; create it without media.');
  });

  it('rejects bad UTF-8, a non-object body, wrong value types and a bad mimeType with 400 saying which', async () => {
    const utf = await svc.api('POST', '/store/v3/files', {
      body: Buffer.from('{"name":"\xff"}', 'latin1'),
      headers: { 'Content-Type': 'application/json' },
    });
    assert.equal(utf.status, 400);
    assert.equal(utf.json().error.errors[0].reason, 'parseError');
    assert.equal(
      utf.json().error.message,
      'Invalid JSON payload received. The body is not valid UTF-8: invalid byte sequence at byte 9.',
    );
    const cases: [object | string, string][] = [
      ['[1]', 'The file metadata must be a JSON object.'],
      [{ name: 5 }, 'The file field "name" must be a string.'],
      [{ trashed: 'yes' }, 'The file field "trashed" must be true or false.'],
      [{ parents: 'abc' }, 'The file field "parents" must be an array of file IDs.'],
      [{ mimeType: 'text plain' }, 'The mimeType "text plain" is not a valid MIME type.'],
    ];
    for (const [body, message] of cases) {
      const r = await svc.api(
        'POST',
        '/store/v3/files',
        typeof body === 'string' ? { body, headers: { 'Content-Type': 'application/json' } } : { body },
      );
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.json().error.message, message);
    }
  });

  it('a parent must exist, be visible and be a folder', async () => {
    const file = await create({ name: 'not-a-folder' });
    const r = await svc.api('POST', '/store/v3/files', { body: { parents: [file.id] } });
    assert.equal(r.status, 400);
    assert.equal(r.json().error.message, `The parent ${file.id} is not a folder.`);
    const bobs = await create({ name: 'bobs', mimeType: FOLDER }, 'dev-token-bob');
    const hidden = await svc.api('POST', '/store/v3/files', { body: { parents: [bobs.id] } });
    assert.equal(hidden.status, 404);
    assert.equal(hidden.json().error.message, `File not found: ${bobs.id}.`);
  });

  it('a service account token creates files it owns', async () => {
    const f = await create({ name: 'robot-file' }, 'dev-token-robot');
    assert.equal(f.owners[0].emailAddress, 'robot@dev-client.iam.example');
    assert.equal(f.owners[0].me, true);
    assert.equal((await svc.api('GET', `/store/v3/files/${f.id}`)).status, 404);
  });
});

describe('update, move, trash, version', () => {
  it('moves with addParents/removeParents, refuses a move into its own subfolder, and raises version on every change', async () => {
    const a = await create({ name: 'a', mimeType: FOLDER });
    const b = await create({ name: 'b', mimeType: FOLDER, parents: [a.id] });
    const f = await create({ name: 'f', parents: [a.id] });
    assert.equal(f.version, '1');
    const moved = (
      await svc.api(
        'PATCH',
        `/store/v3/files/${f.id}?addParents=${b.id}&removeParents=${a.id}&fields=parents,version`,
        { body: {} },
      )
    ).json();
    assert.deepEqual(moved, { parents: [b.id], version: '2' });
    const cycle = await svc.api('PATCH', `/store/v3/files/${a.id}?addParents=${b.id}`, { body: {} });
    assert.equal(cycle.status, 400);
    assert.equal(
      cycle.json().error.message,
      `The folder ${b.id} is inside ${a.id}; a folder cannot be moved into itself or one of its subfolders.`,
    );
    assert.deepEqual((await svc.api('GET', `/store/v3/files/${a.id}?fields=parents,version`)).json(), {
      parents: [],
      version: '1',
    });
    const self = await svc.api('PATCH', `/store/v3/files/${a.id}?addParents=${a.id}`, { body: {} });
    assert.equal(self.status, 400);
    const trashed = (
      await svc.api('PATCH', `/store/v3/files/${f.id}?fields=trashed,version`, { body: { trashed: true } })
    ).json();
    assert.deepEqual(trashed, { trashed: true, version: '3' });
    const back = (
      await svc.api('PATCH', `/store/v3/files/${f.id}?fields=trashed,version`, { body: { trashed: false } })
    ).json();
    assert.deepEqual(back, { trashed: false, version: '4' });
    const content = await svc.api('PUT', `/upload/store/v3/files/${f.id}?uploadType=media&fields=version,size`, {
      body: 'abc',
      headers: { 'Content-Type': 'text/plain' },
    });
    assert.deepEqual(content.json(), { version: '5', size: '3' });
  });

  it('a whole resource echoed back as the PATCH body is accepted: its read-only fields are ignored', async () => {
    const f = await create({ name: 'echo' });
    const whole = (await svc.api('GET', `/store/v3/files/${f.id}?fields=*`)).json();
    for (const field of [
      'kind',
      'size',
      'md5Checksum',
      'createdTime',
      'modifiedTime',
      'version',
      'permissions',
      'owners',
    ])
      assert.ok(field in whole, field);
    const { parents: _parents, ...echoed } = whole;
    const r = await svc.api('PATCH', `/store/v3/files/${f.id}?fields=name,version`, {
      body: { ...echoed, name: 'echoed' },
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json(), { name: 'echoed', version: '2' });
  });

  it('a bad fields selection on PATCH changes nothing', async () => {
    const f = await create({ name: 'keep' });
    const r = await svc.api('PATCH', `/store/v3/files/${f.id}?fields=nmae`, { body: { name: 'changed' } });
    assert.equal(r.status, 400);
    assert.deepEqual((await svc.api('GET', `/store/v3/files/${f.id}?fields=name,version`)).json(), {
      name: 'keep',
      version: '1',
    });
  });

  it('a reader cannot update (403); a stranger gets 404', async () => {
    const f = await create({ name: 'shared' });
    const p = await svc.api('POST', `/store/v3/files/${f.id}/permissions`, {
      body: { type: 'user', role: 'reader', emailAddress: 'bob@example.com' },
    });
    assert.equal(p.status, 200, p.text);
    const bob = await svc.api('PATCH', `/store/v3/files/${f.id}`, { token: 'dev-token-bob', body: { name: 'x' } });
    assert.equal(bob.status, 403);
    assert.equal(bob.json().error.errors[0].reason, 'insufficientFilePermissions');
    const mallory = await svc.api('PATCH', `/store/v3/files/${f.id}`, {
      token: 'dev-token-mallory',
      body: { name: 'x' },
    });
    assert.equal(mallory.status, 404);
  });
});

describe('list', () => {
  it('pages through trashed = true and name filters; kind and nextPageToken appear only when selected', async () => {
    const names = ['pg-1', 'pg-2', 'pg-3'];
    for (const n of names) await create({ name: n, trashed: true });
    const q = encodeURIComponent('trashed = true');
    const first = (await svc.api('GET', `/store/v3/files?q=${q}&pageSize=2&fields=files(name)`)).json();
    assert.deepEqual(first, { files: [{ name: 'pg-1' }, { name: 'pg-2' }] });
    const withToken = (await svc.api('GET', `/store/v3/files?q=${q}&pageSize=2&fields=nextPageToken,kind`)).json();
    assert.deepEqual(Object.keys(withToken).sort(), ['kind', 'nextPageToken']);
    const second = (
      await svc.api('GET', `/store/v3/files?q=${q}&pageSize=2&pageToken=${withToken.nextPageToken}`)
    ).json();
    assert.deepEqual(
      second.files.map((f: { name: string }) => f.name),
      ['pg-3'],
    );
    assert.equal(second.nextPageToken, undefined);
  });

  it('rejects a forged pageToken and an unterminated q string with the parameter named', async () => {
    const t = await svc.api('GET', '/store/v3/files?pageToken=garbage');
    assert.equal(t.status, 400);
    assert.equal(t.json().error.errors[0].location, 'pageToken');
    const q = await svc.api('GET', `/store/v3/files?q=${encodeURIComponent("name = 'open")}`);
    assert.equal(q.status, 400);
    assert.equal(q.json().error.errors[0].location, 'q');
    assert.match(q.json().error.message, /unterminated string literal/);
  });
});

describe('generateIds', () => {
  it('validates count, space and type, naming the parameter', async () => {
    for (const [query, location] of [
      ['count=0', 'count'],
      ['count=-1', 'count'],
      ['count=1.5', 'count'],
      ['count=99999999999999999999', 'count'],
      ['space=photos', 'space'],
      ['type=folders', 'type'],
    ]) {
      const r = await svc.api('GET', `/store/v3/files/generateIds?${query}`);
      assert.equal(r.status, 400, query);
      assert.equal(r.json().error.errors[0].reason, 'invalidParameter');
      assert.equal(r.json().error.errors[0].location, location);
    }
    const max = (await svc.api('GET', '/store/v3/files/generateIds?count=1000&fields=ids')).json();
    assert.equal(max.ids.length, 1000);
    assert.equal(new Set(max.ids).size, 1000);
  });

  it('an ID is usable once, by the user it was handed to, and not for a converting upload', async () => {
    const [id, id2] = (await svc.api('GET', '/store/v3/files/generateIds?count=2')).json().ids;
    const forged = await svc.api('POST', '/store/v3/files', { body: { id: 'made-up-id' } });
    assert.equal(forged.status, 400);
    assert.equal(forged.json().error.message, 'The provided file ID is not usable.');
    const carol = await svc.api('POST', '/store/v3/files', { token: 'dev-token-carol', body: { id } });
    assert.equal(carol.status, 400);
    assert.equal((await svc.api('POST', '/store/v3/files', { body: { id, name: 'once' } })).status, 200);
    const again = await svc.api('POST', '/store/v3/files', { body: { id, name: 'once' } });
    assert.equal(again.status, 409);
    assert.deepEqual(again.json().error.errors[0].reason, 'fileIdInUse');
    assert.equal(again.json().error.message, 'A file already exists with the provided ID.');
    const boundary = 'x1';
    const body =
      `--${boundary}\r\nContent-Type: application/json\r\n\r\n${JSON.stringify({ id: id2, mimeType: 'application/vnd.svc-apps.spreadsheet' })}\r\n` +
      `--${boundary}\r\nContent-Type: text/csv\r\n\r\na,b\r\n--${boundary}--`;
    const conv = await svc.api('POST', '/upload/store/v3/files?uploadType=multipart', {
      body,
      headers: { 'Content-Type': `multipart/related; boundary=${boundary}` },
    });
    assert.equal(conv.status, 403);
    assert.equal(conv.json().error.errors[0].reason, 'forbidden');
    assert.equal(conv.json().error.message, 'Generated IDs are not supported for Docs Editors formats.');
  });
});
