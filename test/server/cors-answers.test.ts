/**
 * CORS as a page on another origin and the caches between see it (supplement §7): an answer to a request with an
 * Origin names that origin and says it varies by Origin (a cache must not hand it to another origin), also when
 * gzipped; a preflight that names no headers is allowed the protocol's default list, one that names some gets them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ServiceHandle, startService } from './helpers/service.ts';

let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

const ORIGIN = 'https://app.example';

describe('CORS answers', () => {
  it('an answer to a request with an Origin is for that origin only, and says it varies by Origin', async () => {
    const r = await svc.api('GET', '/store/v3/about?fields=user', { headers: { Origin: ORIGIN } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers['access-control-allow-origin'], ORIGIN);
    assert.equal(r.headers['timing-allow-origin'], ORIGIN);
    // By Origin, and (a compressible answer, gzipped or not) by what decides its gzip (spec §4.10).
    assert.equal(r.headers.vary, 'Origin, Accept-Encoding, User-Agent');
    // What a page's uploader reads of a session's answers across origins.
    const exposed = String(r.headers['access-control-expose-headers']).split(/,\s*/);
    for (const name of ['Location', 'Range', 'X-Svc-Upload-Id', 'Content-Range', 'Content-Length'])
      assert.ok(exposed.includes(name), `${name} in ${exposed.join(', ')}`);
    const zipped = await svc.api('GET', '/store/v3/about?fields=user', {
      headers: { Origin: ORIGIN, 'Accept-Encoding': 'gzip', 'User-Agent': 'kit (gzip)' },
    });
    assert.equal(zipped.headers['content-encoding'], 'gzip');
    assert.equal(zipped.headers.vary, 'Origin, Accept-Encoding, User-Agent');
  });

  it('a 405 to a page on another origin lets it read the Allow header: what the path takes instead', async () => {
    const r = await svc.api('PUT', '/store/v3/about', { headers: { Origin: ORIGIN } });
    assert.equal(r.status, 405, r.text);
    assert.equal(r.headers['access-control-allow-origin'], ORIGIN);
    assert.equal(r.headers.allow, 'GET');
    const exposed = String(r.headers['access-control-expose-headers']).split(/,\s*/);
    for (const name of ['Allow', 'WWW-Authenticate', 'ETag'])
      assert.ok(exposed.includes(name), `${name} in ${exposed.join(', ')}`);
  });

  it('an answer to a request without an Origin does not vary by it', async () => {
    const r = await svc.api('GET', '/store/v3/about?fields=user');
    assert.equal(r.headers['access-control-allow-origin'], '*');
    assert.equal(r.headers.vary, 'Accept-Encoding, User-Agent');
  });

  it('a preflight that names no headers is allowed the default list; one that names some is allowed those', async () => {
    const bare = await svc.api('OPTIONS', '/upload/store/v3/files', {
      token: null,
      headers: { Origin: ORIGIN, 'Access-Control-Request-Method': 'PUT' },
    });
    assert.equal(bare.status, 204, bare.text);
    assert.equal(bare.headers['access-control-allow-origin'], ORIGIN);
    const allowed = String(bare.headers['access-control-allow-headers']).split(/,\s*/);
    for (const name of ['Authorization', 'Content-Type', 'Content-Range', 'X-Upload-Content-Type'])
      assert.ok(allowed.includes(name), `${name} in ${allowed.join(', ')}`);
    const named = await svc.api('OPTIONS', '/upload/store/v3/files', {
      token: null,
      headers: {
        Origin: ORIGIN,
        'Access-Control-Request-Method': 'PUT',
        'Access-Control-Request-Headers': 'content-range, x-app-trace',
      },
    });
    assert.equal(named.status, 204, named.text);
    assert.equal(named.headers['access-control-allow-headers'], 'content-range, x-app-trace');
  });
});
