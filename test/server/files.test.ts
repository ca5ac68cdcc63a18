/** Metadata endpoints: create, get, download (+Range), update/move/trash, delete, list with q and paging, generateIds, visibility. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ServiceHandle, startService } from './helpers/service.ts';

const FOLDER = 'application/vnd.svc-apps.folder';
let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

async function upload(text: string, token = 'dev-token-alice', type = 'text/plain') {
  const r = await svc.api('POST', '/upload/store/v3/files?uploadType=media', {
    token,
    body: text,
    headers: { 'Content-Type': type },
  });
  assert.equal(r.status, 200, r.text);
  return r.json();
}

describe('create and read', () => {
  it('creates a metadata-only file with defaults and the full resource', async () => {
    const r = await svc.api('POST', '/store/v3/files', { body: {} });
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], 'application/json; charset=UTF-8');
    const f = r.json();
    assert.equal(f.kind, 'store#file');
    assert.equal(f.name, 'Untitled');
    assert.equal(f.mimeType, 'application/octet-stream');
    assert.equal(f.size, '0');
    assert.equal(f.md5Checksum, 'd41d8cd98f00b204e9800998ecf8427e');
    assert.equal(f.version, '1');
    assert.equal(f.trashed, false);
    assert.deepEqual(f.parents, []);
    assert.match(f.createdTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.deepEqual(f.permissions, [
      {
        kind: 'store#permission',
        id: f.owners[0].permissionId,
        type: 'user',
        role: 'owner',
        emailAddress: 'alice@example.com',
        displayName: 'alice',
      },
    ]);
    assert.equal(f.owners[0].emailAddress, 'alice@example.com');
    // It holds no bytes and downloads as nothing.
    const d = await svc.api('GET', `/store/v3/files/${f.id}?alt=media`);
    assert.equal(d.status, 200, d.text);
    assert.equal(d.headers['content-length'], '0');
    assert.equal(d.body.length, 0);
  });

  it('creates a folder without size or md5', async () => {
    const f = (await svc.api('POST', '/store/v3/files', { body: { name: 'Docs', mimeType: FOLDER } })).json();
    assert.equal(f.mimeType, FOLDER);
    assert.equal(f.size, undefined);
    assert.equal(f.md5Checksum, undefined);
  });

  it('gets metadata with fields, downloads bytes, and serves ranges', async () => {
    const f = await upload('hello world');
    const g = await svc.api('GET', `/store/v3/files/${f.id}?fields=id,name,size`);
    assert.equal(g.status, 200);
    assert.deepEqual(g.json(), { id: f.id, name: 'Untitled', size: '11' });
    const d = await svc.api('GET', `/store/v3/files/${f.id}?alt=media`);
    assert.equal(d.status, 200);
    assert.equal(d.text, 'hello world');
    assert.equal(d.headers['content-type'], 'text/plain');
    const p = await svc.api('GET', `/store/v3/files/${f.id}?alt=media`, { headers: { Range: 'bytes=6-' } });
    assert.equal(p.status, 206);
    assert.equal(p.text, 'world');
    assert.equal(p.headers['content-range'], 'bytes 6-10/11');
    const s = await svc.api('GET', `/store/v3/files/${f.id}?alt=media`, { headers: { Range: 'bytes=-5' } });
    assert.equal(s.text, 'world');
    const u = await svc.api('GET', `/store/v3/files/${f.id}?alt=media`, { headers: { Range: 'bytes=50-60' } });
    assert.equal(u.status, 416);
    assert.equal(u.headers['content-range'], 'bytes */11');
  });

  it('answers 403 fileNotDownloadable for native kinds and folders', async () => {
    const f = (
      await svc.api('POST', '/store/v3/files', { body: { mimeType: 'application/vnd.svc-apps.document' } })
    ).json();
    assert.equal(f.size, undefined);
    const d = await svc.api('GET', `/store/v3/files/${f.id}?alt=media`);
    assert.equal(d.status, 403);
    assert.equal(d.json().error.errors[0].reason, 'fileNotDownloadable');
  });

  it('rejects bad alt, bad fields, unknown metadata fields and bad JSON', async () => {
    const f = await upload('x');
    const a = await svc.api('GET', `/store/v3/files/${f.id}?alt=xml`);
    assert.equal(a.status, 400);
    assert.equal(a.json().error.errors[0].location, 'alt');
    const fl = await svc.api('GET', `/store/v3/files/${f.id}?fields=nope`);
    assert.equal(fl.status, 400);
    assert.deepEqual(fl.json().error.errors[0], {
      message: 'Invalid field selection nope',
      domain: 'global',
      reason: 'invalidParameter',
      location: 'fields',
      locationType: 'parameter',
    });
    const u = await svc.api('POST', '/store/v3/files', { body: { nmae: 'typo' } });
    assert.equal(u.status, 400);
    assert.match(u.json().error.message, /"nmae"/);
    const j = await svc.api('POST', '/store/v3/files', {
      body: '{"name": ',
      headers: { 'Content-Type': 'application/json' },
    });
    assert.equal(j.status, 400);
    assert.equal(j.json().error.errors[0].reason, 'parseError');
    assert.match(j.json().error.message, /^Invalid JSON payload received\. .+/);
    const ct = await svc.api('POST', '/store/v3/files', {
      body: 'name=x',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(ct.status, 400);
    assert.match(ct.json().error.message, /application\/json/);
    const big = await svc.api('POST', '/store/v3/files', {
      body: JSON.stringify({ name: 'x'.repeat(1100 * 1024) }),
      headers: { 'Content-Type': 'application/json' },
    });
    assert.equal(big.status, 413);
    assert.equal(big.json().error.errors[0].reason, 'requestTooLarge');
  });
});

describe('auth and visibility', () => {
  it('401 required without a token and authError for an unknown one', async () => {
    const r = await svc.api('GET', '/store/v3/files', { token: null });
    assert.equal(r.status, 401);
    assert.deepEqual(r.json().error.errors[0], {
      message: 'Login Required.',
      domain: 'global',
      reason: 'required',
      location: 'Authorization',
      locationType: 'header',
    });
    const b = await svc.api('GET', '/store/v3/files', { token: 'nope' });
    assert.equal(b.status, 401);
    assert.equal(b.json().error.message, 'Invalid Credentials');
    assert.equal(b.json().error.errors[0].reason, 'authError');
  });

  it('hides other users files with 404 File not found', async () => {
    const f = await upload('secret');
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const r = await svc.api(method, `/store/v3/files/${f.id}`, {
        token: 'dev-token-bob',
        ...(method === 'PATCH' ? { body: { name: 'x' } } : {}),
      });
      assert.equal(r.status, 404, method);
      assert.equal(r.json().error.message, `File not found: ${f.id}.`);
    }
    const list = (
      await svc.api('GET', `/store/v3/files?q=${encodeURIComponent("name = 'Untitled'")}`, { token: 'dev-token-bob' })
    ).json();
    assert.equal(
      list.files.some((x: { id: string }) => x.id === f.id),
      false,
    );
  });
});

describe('update, move, trash, delete', () => {
  it('patches metadata, moves between folders and raises version', async () => {
    const a = (await svc.api('POST', '/store/v3/files', { body: { name: 'A', mimeType: FOLDER } })).json();
    const b = (await svc.api('POST', '/store/v3/files', { body: { name: 'B', mimeType: FOLDER } })).json();
    const f = (await svc.api('POST', '/store/v3/files', { body: { name: 'f', parents: [a.id] } })).json();
    assert.deepEqual(f.parents, [a.id]);
    const m = await svc.api('PATCH', `/store/v3/files/${f.id}?addParents=${b.id}&removeParents=${a.id}`, {
      body: { name: 'g', description: 'd' },
    });
    assert.equal(m.status, 200, m.text);
    assert.deepEqual(m.json().parents, [b.id]);
    assert.equal(m.json().name, 'g');
    assert.equal(m.json().description, 'd');
    assert.equal(m.json().version, '2');
    const put = await svc.api('PUT', `/store/v3/files/${f.id}`, { body: { trashed: true } });
    assert.equal(put.json().trashed, true);
    const bad = await svc.api('PATCH', `/store/v3/files/${f.id}`, { body: { parents: [a.id] } });
    assert.equal(bad.status, 400);
    assert.match(bad.json().error.message, /addParents/);
    const missing = await svc.api('PATCH', `/store/v3/files/${f.id}?addParents=nope`, { body: {} });
    assert.equal(missing.status, 404);
    assert.equal(missing.json().error.message, 'File not found: nope.');
  });

  it('deletes with 204, then 404', async () => {
    const f = await upload('bye');
    const d = await svc.api('DELETE', `/store/v3/files/${f.id}`);
    assert.equal(d.status, 204);
    assert.equal(d.body.length, 0);
    assert.equal((await svc.api('GET', `/store/v3/files/${f.id}`)).status, 404);
  });
});

describe('list', () => {
  it('filters with q, pages with pageToken, and rejects unsupported q', async () => {
    const folder = (await svc.api('POST', '/store/v3/files', { body: { name: 'L', mimeType: FOLDER } })).json();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(
        (await svc.api('POST', '/store/v3/files', { body: { name: `n'${i}`, parents: [folder.id] } })).json().id,
      );
    await svc.api('PATCH', `/store/v3/files/${ids[4]}`, { body: { trashed: true } });
    const q = encodeURIComponent(`'${folder.id}' in parents and trashed = false`);
    const seen: string[] = [];
    let token: string | undefined;
    do {
      const r = await svc.api('GET', `/store/v3/files?q=${q}&pageSize=2${token ? `&pageToken=${token}` : ''}`);
      assert.equal(r.status, 200, r.text);
      const body = r.json();
      assert.equal(body.kind, 'store#fileList');
      assert.ok(body.files.length <= 2);
      seen.push(...body.files.map((f: { id: string }) => f.id));
      token = body.nextPageToken;
    } while (token);
    assert.deepEqual(seen, ids.slice(0, 4));
    const byName = (
      await svc.api('GET', `/store/v3/files?q=${encodeURIComponent("name = 'n\\'2'")}&fields=files(id)`)
    ).json();
    assert.deepEqual(byName, { files: [{ id: ids[2] }] });
    const bad = await svc.api('GET', `/store/v3/files?q=${encodeURIComponent("name contains 'x'")}`);
    assert.equal(bad.status, 400);
    assert.equal(bad.json().error.errors[0].location, 'q');
    assert.match(bad.json().error.message, /name contains 'x'/);
    for (const size of ['0', '1001', 'x']) {
      const r = await svc.api('GET', `/store/v3/files?pageSize=${size}`);
      assert.equal(r.status, 400, size);
      assert.equal(r.json().error.errors[0].location, 'pageSize');
    }
  });
});

describe('generateIds', () => {
  it('hands out IDs per user and enforces 409/400/403', async () => {
    const r = await svc.api('GET', '/store/v3/files/generateIds?count=3');
    assert.equal(r.status, 200);
    const g = r.json();
    assert.equal(g.kind, 'store#generatedIds');
    assert.equal(g.space, 'drive');
    assert.equal(g.ids.length, 3);
    assert.equal((await svc.api('GET', '/store/v3/files/generateIds')).json().ids.length, 10);
    assert.equal((await svc.api('GET', '/store/v3/files/generateIds?count=1001')).status, 400);
    const ok = await svc.api('POST', '/store/v3/files', { body: { id: g.ids[0], name: 'with id' } });
    assert.equal(ok.status, 200);
    assert.equal(ok.json().id, g.ids[0]);
    const again = await svc.api('POST', '/store/v3/files', { body: { id: g.ids[0], name: 'with id' } });
    assert.equal(again.status, 409);
    assert.deepEqual(again.json().error.errors[0].reason, 'fileIdInUse');
    assert.equal(again.json().error.message, 'A file already exists with the provided ID.');
    const bob = await svc.api('POST', '/store/v3/files', { token: 'dev-token-bob', body: { id: g.ids[1] } });
    assert.equal(bob.status, 400);
    assert.equal(bob.json().error.message, 'The provided file ID is not usable.');
    const doc = await svc.api('POST', '/store/v3/files', {
      body: { id: g.ids[1], mimeType: 'application/vnd.svc-apps.document' },
    });
    assert.equal(doc.status, 403);
    assert.equal(doc.json().error.message, 'Generated IDs are not supported for Docs Editors formats.');
    const folder = await svc.api('POST', '/store/v3/files', { body: { id: g.ids[2], mimeType: FOLDER } });
    assert.equal(folder.status, 200);
  });

  it('a generated ID is used once: after its file is deleted a create with it is still a 409', async () => {
    const [id] = (await svc.api('GET', '/store/v3/files/generateIds?count=1')).json().ids as string[];
    const made = await svc.api('POST', '/store/v3/files', { body: { id, name: 'once.txt' } });
    assert.equal(made.status, 200, made.text);
    assert.equal((await svc.api('DELETE', `/store/v3/files/${id}`)).status, 204);
    assert.equal((await svc.api('GET', `/store/v3/files/${id}`)).status, 404);
    const again = await svc.api('POST', '/store/v3/files', { body: { id, name: 'twice.txt' } });
    assert.equal(again.status, 409, again.text);
    assert.equal(again.json().error.errors[0].reason, 'fileIdInUse');
  });
});
