/**
 * How a request finds its route (`server/router.ts`, `server/dispatch.ts`): empty path segments are ignored, a
 * literal segment beats a parameter, a parameter is percent-decoded (a malformed one is a 400 quoting it), HEAD
 * takes GET's route, a path some route has under other methods is a 405 whose message and Allow list them, and the
 * caller is asked for before the `fields` selection is read.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ServiceHandle, startService } from './helpers/service.ts';

let svc: ServiceHandle;
let id: string;
before(async () => {
  svc = await startService();
  const made = await svc.api('POST', '/store/v3/files?fields=id', { body: { name: 'routed.txt' } });
  id = (made.json() as { id: string }).id;
});
after(() => svc.stop());

interface ErrorBody {
  error: { code: number; message: string; errors: { reason: string; location?: string; locationType?: string }[] };
}

describe('routing', () => {
  it('ignores empty path segments: doubled and trailing slashes reach the same route', async () => {
    for (const path of [`//store//v3/files/${id}?fields=name`, `/store/v3/files/${id}/?fields=name`]) {
      const r = await svc.api('GET', path);
      assert.equal(r.status, 200, `${path}: ${r.text}`);
      assert.deepEqual(r.json(), { name: 'routed.txt' });
    }
  });

  it('a literal segment beats a parameter: generateIds is not a file id', async () => {
    const r = await svc.api('GET', '/store/v3/files/generateIds?count=2');
    assert.equal(r.status, 200, r.text);
    assert.equal((r.json() as { ids: string[] }).ids.length, 2);
  });

  it('a parameter is percent-decoded; one that is not valid percent-encoding is a 400 quoting it', async () => {
    const encoded = await svc.api('GET', `/store/v3/files/${encodeURIComponent(id)}%20?fields=id`);
    assert.equal(encoded.status, 404, encoded.text);
    assert.match((encoded.json() as ErrorBody).error.message, new RegExp(`${id} `));
    const bad = await svc.api('GET', '/store/v3/files/%ZZ');
    assert.equal(bad.status, 400, bad.text);
    assert.equal((bad.json() as ErrorBody).error.message, 'The path segment "%ZZ" is not valid percent-encoding.');
  });

  it('HEAD takes the route of GET', async () => {
    const r = await svc.api('HEAD', `/store/v3/files/${id}`);
    assert.equal(r.status, 200);
  });

  it('a path served under other methods is a 405 listing them, once each and in order', async () => {
    const r = await svc.api('DELETE', '/store/v3/files');
    assert.equal(r.status, 405, r.text);
    assert.equal(r.headers.allow, 'GET, POST');
    assert.equal(
      (r.json() as ErrorBody).error.message,
      'Method DELETE is not allowed on /store/v3/files; allowed: GET, POST.',
    );
    assert.equal((r.json() as ErrorBody).error.errors[0]?.reason, 'methodNotAllowed');
    // The literal route alone decides the methods: a DELETE there is not a delete of a file named generateIds.
    const literal = await svc.api('DELETE', '/store/v3/files/generateIds');
    assert.equal(literal.status, 405, literal.text);
    assert.equal(literal.headers.allow, 'GET');
  });

  it('a path no route serves is a 404 pointing at the path', async () => {
    const r = await svc.api('GET', `/store/v3/files/${id}/nothing`);
    assert.equal(r.status, 404, r.text);
    const body = r.json() as ErrorBody;
    assert.equal(body.error.message, `No API endpoint at /store/v3/files/${id}/nothing.`);
    assert.deepEqual(body.error.errors[0], { ...body.error.errors[0], location: 'path', locationType: 'parameter' });
  });

  it('asks who calls before it reads fields: a bad selection is a 401 without a token, a 400 naming fields with one', async () => {
    const anonymous = await svc.api('GET', `/store/v3/files/${id}?fields=name((`, { token: null });
    assert.equal(anonymous.status, 401, anonymous.text);
    const signed = await svc.api('GET', `/store/v3/files/${id}?fields=name((`);
    assert.equal(signed.status, 400, signed.text);
    assert.deepEqual((signed.json() as ErrorBody).error.errors[0], {
      ...(signed.json() as ErrorBody).error.errors[0],
      reason: 'invalidParameter',
      location: 'fields',
    });
  });

  it('reads a bad selection before the handler runs: a media upload with one stores nothing', async () => {
    const r = await svc.api('POST', '/upload/store/v3/files?uploadType=media&fields=id((', {
      body: 'never stored',
      headers: { 'Content-Type': 'text/plain' },
    });
    assert.equal(r.status, 400, r.text);
    const list = await svc.api('GET', '/store/v3/files?fields=files(id)&pageSize=1000');
    assert.equal((list.json() as { files: unknown[] }).files.length, 1, 'only the file made before');
  });
});
