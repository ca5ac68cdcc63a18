/** Transport rules: routing errors, CORS, gzip, oversized headers, admin faults and the admin switch. */
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { type ServiceHandle, startService } from './helpers/service.ts';

let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

describe('routing', () => {
  it('404 names an unknown path; 405 lists allowed methods', async () => {
    const r = await svc.api('GET', '/store/v3/nothing/here');
    assert.equal(r.status, 404);
    assert.equal(r.json().error.message, 'No API endpoint at /store/v3/nothing/here.');
    const m = await svc.api('POST', '/store/v3/files/abc');
    assert.equal(m.status, 405);
    assert.equal(m.headers.allow, 'DELETE, GET, PATCH, PUT');
  });

  it('431 with a JSON body for oversized headers', async () => {
    const r = await svc.api('GET', '/store/v3/files', { headers: { 'X-Big': 'x'.repeat(20_000) } });
    assert.equal(r.status, 431);
    assert.match(r.json().error.message, /headers are larger than the limit of 16384 bytes/);
  });
});

describe('CORS', () => {
  it('answers preflights for every route', async () => {
    for (const path of [
      '/store/v3/files',
      '/upload/store/v3/files?uploadType=resumable&upload_id=x',
      '/batch/store/v3',
    ]) {
      const r = await svc.api('OPTIONS', path, {
        token: null,
        headers: {
          Origin: 'https://app.example',
          'Access-Control-Request-Method': 'PUT',
          'Access-Control-Request-Headers': 'authorization, content-range',
        },
      });
      assert.equal(r.status, 204, path);
      assert.equal(r.headers['access-control-allow-origin'], 'https://app.example');
      assert.match(String(r.headers['access-control-allow-methods']), /PUT/);
      assert.equal(r.headers['access-control-allow-headers'], 'authorization, content-range');
    }
  });

  it('sends Allow-Origin and exposes upload headers on answers, errors included', async () => {
    const r = await svc.api('GET', '/store/v3/files', { token: null, headers: { Origin: 'https://app.example' } });
    assert.equal(r.status, 401);
    assert.equal(r.headers['access-control-allow-origin'], 'https://app.example');
    const exposed = String(r.headers['access-control-expose-headers']);
    for (const h of ['Location', 'Range', 'X-Svc-Upload-Id', 'Content-Length', 'Content-Range'])
      assert.ok(exposed.includes(h), h);
  });
});

describe('gzip', () => {
  it('compresses only with Accept-Encoding gzip and "gzip" in the User-Agent', async () => {
    const plain = await svc.api('GET', '/store/v3/files', { headers: { 'Accept-Encoding': 'gzip' } });
    assert.equal(plain.headers['content-encoding'], undefined);
    const z = await svc.api('GET', '/store/v3/files', {
      headers: { 'Accept-Encoding': 'gzip, deflate', 'User-Agent': 'kit/1.0 (gzip)' },
    });
    assert.equal(z.status, 200);
    assert.equal(z.headers['content-encoding'], 'gzip');
    assert.deepEqual(JSON.parse(gunzipSync(z.body).toString()), plain.json());
    const q0 = await svc.api('GET', '/store/v3/files', {
      headers: { 'Accept-Encoding': 'gzip;q=0', 'User-Agent': 'gzip' },
    });
    assert.equal(q0.headers['content-encoding'], undefined);
  });

  it('never compresses 204, 308 or empty bodies, and gzips downloads', async () => {
    const gz = { 'Accept-Encoding': 'gzip', 'User-Agent': 'gzip' };
    const f = (
      await svc.api('POST', '/upload/store/v3/files?uploadType=media', {
        body: 'zip me '.repeat(100),
        headers: { 'Content-Type': 'text/plain' },
      })
    ).json();
    const d = await svc.api('GET', `/store/v3/files/${f.id}?alt=media`, { headers: gz });
    assert.equal(d.headers['content-encoding'], 'gzip');
    assert.equal(gunzipSync(d.body).toString(), 'zip me '.repeat(100));
    const start = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable', { headers: gz });
    assert.equal(start.headers['content-encoding'], undefined);
    const s = await svc.api('PUT', start.headers.location as string, {
      token: null,
      body: '',
      headers: { ...gz, 'Content-Range': 'bytes */*' },
    });
    assert.equal(s.status, 308);
    assert.equal(s.headers['content-encoding'], undefined);
    const del = await svc.api('DELETE', `/store/v3/files/${f.id}`, { headers: gz });
    assert.equal(del.status, 204);
    assert.equal(del.headers['content-encoding'], undefined);
  });
});

describe('admin faults', () => {
  it('503 and 403 userRateLimitExceeded on matching requests, times and skip honoured', async () => {
    const add = await svc.api('POST', '/__admin/faults', {
      token: null,
      body: [
        {
          match: { method: 'GET', pathPrefix: '/store/v3/files' },
          action: { type: 'status', status: 503 },
          skip: 1,
          times: 1,
        },
        { match: { pathRegex: '^/store/v3/files/generateIds$' }, action: { type: 'status', status: 403 } },
      ],
    });
    assert.equal(add.status, 200);
    assert.equal(add.json().faults.length, 2);
    assert.equal((await svc.api('GET', '/store/v3/files')).status, 200, 'skipped once');
    const r503 = await svc.api('GET', '/store/v3/files');
    assert.equal(r503.status, 503);
    assert.equal(r503.json().error.errors[0].reason, 'backendError');
    assert.equal((await svc.api('GET', '/store/v3/files')).status, 200, 'used up');
    const r403 = await svc.api('GET', '/store/v3/files/generateIds');
    assert.equal(r403.status, 403);
    assert.deepEqual(r403.json().error.errors[0], {
      message: 'User rate limit exceeded.',
      domain: 'usageLimits',
      reason: 'userRateLimitExceeded',
    });
    assert.deepEqual((await svc.api('GET', '/__admin/faults', { token: null })).json(), { faults: [] });
  });

  it('delay then normal handling; DELETE clears; bad faults are 400', async () => {
    await svc.api('POST', '/__admin/faults', {
      token: null,
      body: { match: { uploadType: 'media' }, action: { type: 'delay', ms: 20 } },
    });
    await svc.api('POST', '/__admin/faults', {
      token: null,
      body: { match: { pathPrefix: '/nowhere' }, action: { type: 'status', status: 500 } },
    });
    const r = await svc.api('POST', '/upload/store/v3/files?uploadType=media', {
      body: 'late',
      headers: { 'Content-Type': 'text/plain' },
    });
    assert.equal(r.status, 200);
    assert.equal((await svc.api('GET', '/__admin/faults', { token: null })).json().faults.length, 1);
    assert.equal((await svc.api('DELETE', '/__admin/faults', { token: null })).status, 204);
    assert.equal((await svc.api('GET', '/__admin/faults', { token: null })).json().faults.length, 0);
    const bad = await svc.api('POST', '/__admin/faults', { token: null, body: { action: { type: 'explode' } } });
    assert.equal(bad.status, 400);
    assert.match(bad.json().error.message, /action.type/);
  });

  it('admin paths are 404 without --admin', async () => {
    const plain = await startService({ admin: false });
    try {
      const r = await plain.api('POST', '/__admin/clock', { token: null, body: { advanceMs: 1 } });
      assert.equal(r.status, 404);
    } finally {
      await plain.stop();
    }
  });
});

describe('config', () => {
  it('uses the tokens of --config and relaxes the gzip User-Agent rule', async () => {
    const custom = await startService({
      config: { tokens: { t1: { user: 'Zed@corp.example', client: 'c' } }, gzipAnyUserAgent: true },
    });
    try {
      assert.equal((await custom.api('GET', '/store/v3/files')).status, 401, 'dev tokens are gone');
      const r = await custom.api('POST', '/store/v3/files', {
        token: 't1',
        body: {},
        headers: { 'Accept-Encoding': 'gzip' },
      });
      assert.equal(r.headers['content-encoding'], 'gzip');
      assert.equal(JSON.parse(gunzipSync(r.body).toString()).owners[0].emailAddress, 'zed@corp.example');
    } finally {
      await custom.stop();
    }
  });
});
