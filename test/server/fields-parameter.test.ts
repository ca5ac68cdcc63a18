/**
 * Checks of the `fields` parameter (spec §4.9, §7; supplement §3) on every data response of files and uploads:
 * grammar rules one by one, the 400 format, error bodies never filtered, and no side effect behind a 400.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ServiceHandle, startService } from './helpers/service.ts';

let svc: ServiceHandle;
let file: Record<string, any>;
before(async () => {
  svc = await startService();
  const r = await svc.api('POST', '/upload/store/v3/files?uploadType=media', {
    body: 'hello',
    headers: { 'Content-Type': 'text/plain' },
  });
  file = r.json();
});
after(() => svc.stop());

const get = (fields: string) => svc.api('GET', `/store/v3/files/${file.id}?fields=${encodeURIComponent(fields)}`);

describe('grammar (spec §4.9 rules 1–8)', () => {
  it('selects comma lists (spaces after commas allowed), paths, sub-selectors and wildcards', async () => {
    const perm = file.permissions[0];
    const owner = file.owners[0];
    const cases: [string, unknown][] = [
      ['id,name', { id: file.id, name: 'Untitled' }],
      ['id, name,  size', { id: file.id, name: 'Untitled', size: '5' }],
      ['permissions/role', { permissions: [{ role: 'owner' }] }],
      ['permissions(id,role)', { permissions: [{ id: perm.id, role: 'owner' }] }],
      ['owners(emailAddress),id', { owners: [{ emailAddress: owner.emailAddress }], id: file.id }],
      ['owners/*', { owners: [owner] }],
      ['owners', { owners: [owner] }],
      ['*', file],
      ['', file], // an empty fields parameter selects nothing away: the default resource
    ];
    for (const [fields, expected] of cases) {
      const r = await get(fields);
      assert.equal(r.status, 200, `${fields}: ${r.text}`);
      assert.deepEqual(r.json(), expected, fields);
    }
  });

  it('a list selection is relative to the collection; kind and nextPageToken only when selected', async () => {
    await svc.api('POST', '/store/v3/files', { body: { name: 'second' } });
    const plain = (await svc.api('GET', '/store/v3/files?pageSize=1&fields=files(id)')).json();
    assert.deepEqual(Object.keys(plain), ['files']);
    const all = (await svc.api('GET', '/store/v3/files?pageSize=1&fields=kind,nextPageToken,files/name')).json();
    assert.equal(all.kind, 'store#fileList');
    assert.equal(typeof all.nextPageToken, 'string');
    assert.deepEqual(all.files, [{ name: 'Untitled' }]);
    const ids = (await svc.api('GET', '/store/v3/files/generateIds?count=2&fields=kind')).json();
    assert.deepEqual(ids, { kind: 'store#generatedIds' });
  });
});

describe('400 for a bad selection (spec §7, supplement §3)', () => {
  it('answers invalidParameter at location fields, with the selection and what is wrong', async () => {
    const cases: [string, string][] = [
      ['Name', 'Invalid field selection Name'],
      ['id/nested', 'Invalid field selection id/nested'],
      ['owners(nope)', 'Invalid field selection owners(nope)'],
      ['id,', 'Invalid field selection id,: trailing comma at position 2'],
      ['permissions()', 'Invalid field selection permissions(): empty parentheses at position 11'],
      ['data/id', 'Invalid field selection data/id: the data wrapper must not be part of the selection at position 0'],
    ];
    for (const [fields, message] of cases) {
      const r = await get(fields);
      assert.equal(r.status, 400, fields);
      assert.equal(r.headers['content-type'], 'application/json; charset=UTF-8');
      assert.deepEqual(r.json(), {
        error: {
          code: 400,
          message,
          errors: [
            { message, domain: 'global', reason: 'invalidParameter', location: 'fields', locationType: 'parameter' },
          ],
        },
      });
    }
    const unclosed = await get('permissions(id');
    assert.equal(unclosed.status, 400);
    assert.match(unclosed.json().error.message, /^Invalid field selection permissions\(id: .+ at position \d+$/);
  });

  it('never filters an error body', async () => {
    const r = await svc.api('GET', '/store/v3/files/no-such-file?fields=id');
    assert.equal(r.status, 404);
    assert.deepEqual(Object.keys(r.json().error).sort(), ['code', 'errors', 'message']);
    assert.equal(r.json().error.message, 'File not found: no-such-file.');
    const auth = await svc.api('GET', '/store/v3/files?fields=kind', { token: null });
    assert.equal(auth.status, 401);
    assert.equal(auth.json().error.errors[0].reason, 'required');
  });

  it('a bad selection on a create, a multipart upload or a session start creates nothing', async () => {
    const before = (await svc.api('GET', '/store/v3/files?fields=files(id)')).json().files.length;
    const meta = await svc.api('POST', '/store/v3/files?fields=idd', { body: { name: 'ghost' } });
    assert.equal(meta.status, 400);
    const body =
      '--b\r\nContent-Type: application/json\r\n\r\n{"name":"ghost"}\r\n--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b--';
    const mp = await svc.api('POST', '/upload/store/v3/files?uploadType=multipart&fields=(', {
      body,
      headers: { 'Content-Type': 'multipart/related; boundary=b' },
    });
    assert.equal(mp.status, 400);
    assert.equal(mp.json().error.errors[0].location, 'fields');
    const start = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable&fields=size/x', {
      body: { name: 'ghost' },
    });
    assert.equal(start.status, 400);
    assert.equal(start.headers.location, undefined);
    assert.equal((await svc.api('GET', '/store/v3/files?fields=files(id)')).json().files.length, before);
  });
});
