/**
 * Checks of protocol basics (spec §4.10, §7, §9; supplement §7): CORS for what the kit sends, gzip rules, status
 * lines, HEAD, downloads with Range, auth messages, and what a hostile client sends (duplicate headers, bad paths).
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { type ServiceHandle, startService } from './helpers/service.ts';

let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

/** Sends raw request text (repeated headers, odd request lines) and returns the whole response text. */
function raw(text: string): Promise<string> {
  const { port } = new URL(svc.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(text));
    let out = '';
    socket.on('data', (c: Buffer) => (out += c.toString('latin1')));
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
  });
}

const GZ = { 'Accept-Encoding': 'gzip', 'User-Agent': 'kit-test (gzip)' };

describe('CORS (supplement §7)', () => {
  it('answers the preflight of every method and header the kit sends, on every upload and API path', async () => {
    const kitHeaders = 'authorization, content-type, content-range, x-upload-content-type, x-upload-content-length';
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
      for (const path of [
        '/store/v3/files',
        '/store/v3/files/x',
        '/upload/store/v3/files?uploadType=resumable',
        '/upload/store/v3/files/x?uploadType=multipart',
      ]) {
        const r = await svc.api('OPTIONS', path, {
          token: null,
          headers: {
            Origin: 'http://localhost:5173',
            'Access-Control-Request-Method': method,
            'Access-Control-Request-Headers': kitHeaders,
          },
        });
        assert.equal(r.status, 204, `${method} ${path}`);
        assert.equal(r.headers['access-control-allow-origin'], 'http://localhost:5173');
        assert.ok(String(r.headers['access-control-allow-methods']).split(', ').includes(method), method);
        for (const h of kitHeaders.split(', '))
          assert.ok(String(r.headers['access-control-allow-headers']).toLowerCase().includes(h), h);
      }
    }
    const bare = await svc.api('OPTIONS', '/store/v3/files', {
      token: null,
      headers: { Origin: 'https://a.example', 'Access-Control-Request-Method': 'PUT' },
    });
    for (const h of [
      'Authorization',
      'Content-Type',
      'Content-Range',
      'X-Upload-Content-Type',
      'X-Upload-Content-Length',
    ]) {
      assert.ok(String(bare.headers['access-control-allow-headers']).includes(h), h);
    }
  });

  it('exposes Location, X-Svc-Upload-Id on a session start and Range on a 308', async () => {
    const start = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable', {
      headers: { Origin: 'https://a.example' },
    });
    assert.equal(start.headers['access-control-allow-origin'], 'https://a.example');
    const exposed = String(start.headers['access-control-expose-headers']).split(', ');
    for (const h of ['Location', 'Range', 'X-Svc-Upload-Id', 'Content-Range', 'ETag', 'Content-Disposition'])
      assert.ok(exposed.includes(h), h);
    const s = await svc.api('PUT', start.headers.location as string, {
      token: null,
      body: '',
      headers: { Origin: 'https://a.example', 'Content-Range': 'bytes */*' },
    });
    assert.equal(s.status, 308);
    assert.equal(s.headers['access-control-allow-origin'], 'https://a.example');
  });
});

describe('status lines', () => {
  it('308 is "Resume Incomplete" and 499 is "Client Closed Request"', async () => {
    const start = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable');
    const path = new URL(start.headers.location as string);
    const query = await raw(
      `PUT ${path.pathname}${path.search} HTTP/1.1\r\nHost: x\r\nContent-Range: bytes */*\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
    );
    assert.match(query, /^HTTP\/1\.1 308 Resume Incomplete\r\n/);
    assert.doesNotMatch(query, /\r\nLocation:/i);
    const cancel = await raw(`DELETE ${path.pathname}${path.search} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    assert.match(cancel, /^HTTP\/1\.1 499 Client Closed Request\r\n/);
  });
});

describe('gzip (spec §4.10, supplement §7)', () => {
  it('needs both Accept-Encoding gzip and "gzip" in the User-Agent; errors are compressed too', async () => {
    const uaOnly = await svc.api('GET', '/store/v3/files', { headers: { 'User-Agent': 'gzip' } });
    assert.equal(uaOnly.headers['content-encoding'], undefined);
    const z = await svc.api('GET', '/store/v3/files/nope', { headers: GZ });
    assert.equal(z.status, 404);
    assert.equal(z.headers['content-encoding'], 'gzip');
    assert.match(String(z.headers.vary), /Accept-Encoding/);
    assert.equal(JSON.parse(gunzipSync(z.body).toString()).error.message, 'File not found: nope.');
  });

  it('never compresses a 499, a 206 or a HEAD', async () => {
    const start = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable', { headers: GZ });
    const d = await svc.api('DELETE', start.headers.location as string, { token: null, headers: GZ });
    assert.equal(d.status, 499);
    assert.equal(d.headers['content-encoding'], undefined);
    assert.equal(d.body.length, 0);
    const f = (
      await svc.api('POST', '/upload/store/v3/files?uploadType=media', {
        body: 'x'.repeat(500),
        headers: { 'Content-Type': 'text/plain' },
      })
    ).json();
    const part = await svc.api('GET', `/store/v3/files/${f.id}?alt=media`, { headers: { ...GZ, Range: 'bytes=0-9' } });
    assert.equal(part.status, 206);
    assert.equal(part.headers['content-encoding'], undefined);
    assert.equal(part.text, 'x'.repeat(10));
    const head = await svc.api('HEAD', `/store/v3/files/${f.id}`, { headers: GZ });
    assert.equal(head.headers['content-encoding'], undefined);
  });
});

describe('downloads with Range', () => {
  it('206 for one range, 416 outside, the whole body for a malformed or multi-range header', async () => {
    const f = (
      await svc.api('POST', '/upload/store/v3/files?uploadType=media', {
        body: '0123456789',
        headers: { 'Content-Type': 'text/plain' },
      })
    ).json();
    const url = `/store/v3/files/${f.id}?alt=media`;
    const one = await svc.api('GET', url, { headers: { Range: 'bytes=2-4' } });
    assert.equal(one.status, 206);
    assert.equal(one.text, '234');
    assert.equal(one.headers['content-range'], 'bytes 2-4/10');
    assert.equal(one.headers['content-length'], '3');
    const clipped = await svc.api('GET', url, { headers: { Range: 'bytes=8-100' } });
    assert.equal(clipped.headers['content-range'], 'bytes 8-9/10');
    const out = await svc.api('GET', url, { headers: { Range: 'bytes=10-' } });
    assert.equal(out.status, 416);
    assert.equal(out.headers['content-range'], 'bytes */10');
    assert.equal(out.json().error.code, 416);
    for (const ignored of ['bytes=0-1,3-4', 'items=0-1', 'bytes=5-2']) {
      const r = await svc.api('GET', url, { headers: { Range: ignored } });
      assert.equal(r.status, 200, ignored);
      assert.equal(r.text, '0123456789');
    }
  });

  it('HEAD answers the headers of the GET, with its Content-Length and no body', async () => {
    const f = (
      await svc.api('POST', '/upload/store/v3/files?uploadType=media', {
        body: 'abcdef',
        headers: { 'Content-Type': 'text/plain' },
      })
    ).json();
    const h = await svc.api('HEAD', `/store/v3/files/${f.id}?alt=media`);
    assert.equal(h.status, 200);
    assert.equal(h.headers['content-length'], '6');
    assert.equal(h.body.length, 0);
    const meta = await svc.api('HEAD', `/store/v3/files/${f.id}?fields=id`);
    assert.equal(meta.headers['content-length'], String(Buffer.byteLength(JSON.stringify({ id: f.id }))));
    assert.equal(meta.body.length, 0);
  });
});

describe('auth (supplement §7)', () => {
  it('401 required without a token, authError for a wrong scheme or an empty bearer, both with WWW-Authenticate', async () => {
    const none = await svc.api('POST', '/upload/store/v3/files?uploadType=media', {
      token: null,
      body: 'x',
      headers: { 'Content-Type': 'text/plain' },
    });
    assert.equal(none.status, 401);
    assert.equal(none.json().error.message, 'Login Required.');
    assert.ok(none.headers['www-authenticate']);
    for (const value of ['Basic YWxpY2U6cHc=', 'Bearer', 'Bearer two tokens']) {
      const r = await svc.api('GET', '/store/v3/files', { headers: { Authorization: value } });
      assert.equal(r.status, 401, value);
      assert.deepEqual(r.json().error.errors[0], {
        message: 'Invalid Credentials',
        domain: 'global',
        reason: 'authError',
        location: 'Authorization',
        locationType: 'header',
      });
    }
  });
});

describe('hostile and sloppy requests', () => {
  it('two different Authorization or Content-Type headers are a 400 naming the header', async () => {
    const auth = await raw(
      'GET /store/v3/files HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer dev-token-alice\r\nAuthorization: Bearer dev-token-bob\r\nConnection: close\r\n\r\n',
    );
    assert.match(auth, /^HTTP\/1\.1 400 /);
    assert.match(auth, /The authorization header was sent 2 times with different values; send it once\./);
    const body = '{"name":"dup"}';
    const type = await raw(
      `POST /store/v3/files HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer dev-token-alice\r\nContent-Type: application/json\r\n` +
        `Content-Type: text/plain\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    assert.match(type, /^HTTP\/1\.1 400 /);
    assert.match(type, /"location":"content-type"/);
    const same = await raw(
      'GET /store/v3/files?fields=kind HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer dev-token-alice\r\nAuthorization: Bearer dev-token-alice\r\nConnection: close\r\n\r\n',
    );
    assert.match(same, /^HTTP\/1\.1 200 /);
  });

  it('wrong methods, bad percent-encoding, unknown paths and bad HTTP are clear 4xx with JSON bodies', async () => {
    const trace = await svc.api('TRACE', '/store/v3/files');
    assert.equal(trace.status, 405);
    assert.equal(trace.headers.allow, 'GET, POST');
    assert.equal(trace.json().error.errors[0].reason, 'methodNotAllowed');
    const options = await svc.api('OPTIONS', '/store/v3/files');
    assert.equal(options.status, 405);
    const pct = await svc.api('GET', '/store/v3/files/%E0%A4%A');
    assert.equal(pct.status, 400);
    assert.equal(pct.json().error.message, 'The path segment "%E0%A4%A" is not valid percent-encoding.');
    const other = await svc.api('GET', '/store/v2/files');
    assert.equal(other.status, 404);
    assert.equal(other.json().error.message, 'No API endpoint at /store/v2/files.');
    const bad = await raw('GET /store/v3/files?fields=id, name HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    assert.match(bad, /^HTTP\/1\.1 400 Bad Request\r\n/);
    assert.match(bad, /The request is not valid HTTP/);
  });

  it('an encoded file id is decoded once; a long URL is a 431, never a 500', async () => {
    const enc = await svc.api('GET', `/store/v3/files/${encodeURIComponent('a/b c')}`);
    assert.equal(enc.status, 404);
    assert.equal(enc.json().error.message, 'File not found: a/b c.');
    const long = await svc.api('GET', `/store/v3/files?q=${'x'.repeat(40_000)}`);
    assert.equal(long.status, 431);
  });
});
