/**
 * What every answer gets from the request's method and headers alone (`server/http/answer-headers.ts`): gzip only
 * where a body is there to shrink and the client asked for it in any spelling (spec §4.10), never for a HEAD, a
 * partial answer or an empty body; a CORS preflight only for an OPTIONS that names its method, answered with the
 * methods, headers and cache time of supplement §7.
 */
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { type ServiceHandle, startService } from './helpers/service.ts';

let svc: ServiceHandle;
let fileId: string;
let emptyId: string;
const TEXT = 'squeeze me '.repeat(200);
const GZ = { 'Accept-Encoding': 'gzip', 'User-Agent': 'kit (gzip)' };

before(async () => {
  svc = await startService();
  const upload = async (body: string) => {
    const r = await svc.api('POST', '/upload/store/v3/files?uploadType=media&fields=id', {
      body,
      headers: { 'Content-Type': 'text/plain' },
    });
    assert.equal(r.status, 200, r.text);
    return (r.json() as { id: string }).id;
  };
  fileId = await upload(TEXT);
  emptyId = await upload('');
});
after(() => svc.stop());

describe('gzip', () => {
  it('is asked for in any case and spacing of Accept-Encoding and User-Agent', async () => {
    for (const headers of [
      { 'Accept-Encoding': 'GZIP', 'User-Agent': 'Kit (GZIP)' },
      { 'Accept-Encoding': 'br ,  gzip ; q=0.5', 'User-Agent': 'kit gzip' },
      { 'Accept-Encoding': 'deflate,gzip;  q=1', 'User-Agent': 'gzip' },
    ]) {
      const r = await svc.api('GET', `/store/v3/files/${fileId}?alt=media`, { headers });
      assert.equal(r.status, 200, JSON.stringify(headers));
      assert.equal(r.headers['content-encoding'], 'gzip', JSON.stringify(headers));
      assert.equal(gunzipSync(r.body).toString(), TEXT);
    }
  });

  it('a q=0 refuses it, however it is spaced', async () => {
    for (const accept of ['gzip; q=0', 'gzip ;q=0 ', 'br, gzip;  q=0.0']) {
      const r = await svc.api('GET', `/store/v3/files/${fileId}?alt=media`, {
        headers: { 'Accept-Encoding': accept, 'User-Agent': 'gzip' },
      });
      assert.equal(r.headers['content-encoding'], undefined, accept);
      assert.equal(r.text, TEXT);
    }
  });

  it('is never used for a HEAD: it answers the length of the plain body', async () => {
    const r = await svc.api('HEAD', `/store/v3/files/${fileId}?alt=media`, { headers: GZ });
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-encoding'], undefined);
    assert.equal(r.headers['content-length'], String(TEXT.length));
    assert.equal(r.body.length, 0);
  });

  it('is never used for a range: the 206 carries exactly the bytes asked for', async () => {
    const r = await svc.api('GET', `/store/v3/files/${fileId}?alt=media`, { headers: { ...GZ, Range: 'bytes=0-9' } });
    assert.equal(r.status, 206, r.text);
    assert.equal(r.headers['content-encoding'], undefined);
    assert.equal(r.headers['content-range'], `bytes 0-9/${TEXT.length}`);
    assert.equal(r.text, TEXT.slice(0, 10));
  });

  it('is never used for an empty body: an empty file downloads as no bytes at all', async () => {
    const r = await svc.api('GET', `/store/v3/files/${emptyId}?alt=media`, { headers: GZ });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers['content-encoding'], undefined);
    assert.equal(r.headers['content-length'], '0');
    assert.equal(r.body.length, 0);
  });

  it('a JSON answer, gzipped or not, says it varies by Accept-Encoding and User-Agent; gzipped, it has the length of its gzipped bytes', async () => {
    const r = await svc.api('GET', `/store/v3/files/${fileId}?fields=id,name`, { headers: GZ });
    assert.equal(r.headers['content-encoding'], 'gzip');
    assert.equal(r.headers.vary, 'Accept-Encoding, User-Agent');
    assert.equal(r.headers['content-length'], String(r.body.length));
    // Not gzipped for this request, but a shared cache must not hand it the gzipped answer, nor this one to others.
    const plain = await svc.api('GET', `/store/v3/files/${fileId}?fields=id,name`);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.headers.vary, 'Accept-Encoding, User-Agent');
    assert.deepEqual(JSON.parse(gunzipSync(r.body).toString()), plain.json());
  });
});

describe('CORS preflight', () => {
  it('is an OPTIONS naming its method: answered 204 with the methods, the headers and a day of caching', async () => {
    const r = await svc.api('OPTIONS', `/store/v3/files/${fileId}`, {
      token: null,
      headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'PATCH' },
    });
    assert.equal(r.status, 204, r.text);
    assert.equal(r.headers['access-control-allow-methods'], 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
    assert.equal(r.headers['access-control-max-age'], '86400');
    assert.equal(r.headers.vary, 'Origin');
  });

  it('an OPTIONS that names no method is not a preflight: it is routed, and no route takes OPTIONS', async () => {
    const r = await svc.api('OPTIONS', `/store/v3/files/${fileId}`, { headers: { Origin: 'https://app.example' } });
    assert.equal(r.status, 405, r.text);
    assert.equal(r.headers['access-control-allow-methods'], undefined);
  });

  it('another method that names one is not a preflight either: it is answered as itself', async () => {
    const r = await svc.api('GET', `/store/v3/files/${fileId}?fields=name`, {
      headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'DELETE' },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(typeof (r.json() as { name: unknown }).name, 'string');
    assert.equal(r.headers['access-control-allow-methods'], undefined);
  });
});
