/** Resumable uploads: every rule of spec §3.1/§4.3–4.5 and supplement §1. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { bytesOf } from './helpers/bytes.ts';
import { type ServiceHandle, startService } from './helpers/service.ts';

const KB256 = 256 * 1024;
let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

const md5 = (b: Uint8Array) => createHash('md5').update(b).digest('hex');

/** Starts a create session; `meta` null sends no body. */
async function start(meta: object | null = { name: 'big.bin' }, headers: Record<string, string> = {}, query = '') {
  const r = await svc.api('POST', `/upload/store/v3/files?uploadType=resumable${query}`, {
    ...(meta ? { body: meta } : {}),
    headers,
  });
  assert.equal(r.status, 200, r.text);
  return r;
}

async function sessionUri(meta?: object | null, headers: Record<string, string> = {}, query = ''): Promise<string> {
  return (await start(meta, headers, query)).headers.location as string;
}

const put = (uri: string, body: Uint8Array | string, range?: string, headers: Record<string, string> = {}) =>
  svc.api('PUT', uri, { token: null, body, headers: { ...(range ? { 'Content-Range': range } : {}), ...headers } });

describe('session start', () => {
  it('answers 200 with Location, X-Svc-Upload-Id and Content-Length 0', async () => {
    const r = await start({ name: 'a' }, { 'X-Upload-Content-Type': 'text/csv', 'X-Upload-Content-Length': '3' });
    const loc = r.headers.location as string;
    const id = r.headers['x-svc-upload-id'] as string;
    assert.ok(id.length > 20);
    assert.equal(loc, `${svc.url}/upload/store/v3/files?uploadType=resumable&upload_id=${id}`);
    assert.equal(r.headers['content-length'], '0');
    assert.equal(r.body.length, 0);
    assert.match(String(r.headers['access-control-expose-headers']), /X-Svc-Upload-Id/);
  });

  it('needs auth to start, not to send bytes (the URI is a capability)', async () => {
    const anon = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable', { token: null });
    assert.equal(anon.status, 401);
    const uri = await sessionUri(null, { 'X-Upload-Content-Type': 'text/plain' });
    const done = await put(uri, 'abc');
    assert.equal(done.status, 200);
    const f = done.json();
    assert.equal(f.name, 'Untitled');
    assert.equal(f.mimeType, 'text/plain');
    assert.equal(f.size, '3');
  });

  it('defaults the type to application/octet-stream and applies start-request fields to the final response', async () => {
    const uri = await sessionUri({ name: 'n' }, {}, '&fields=name,mimeType,size');
    const r = await put(uri, 'xyz');
    assert.deepEqual(r.json(), { name: 'n', mimeType: 'application/octet-stream', size: '3' });
  });

  it('a create session takes parents in its metadata and the file lands in that folder', async () => {
    const folder = await svc.api('POST', '/store/v3/files', {
      body: { name: 'into', mimeType: 'application/vnd.svc-apps.folder' },
    });
    assert.equal(folder.status, 200, folder.text);
    const uri = await sessionUri({ name: 'child.bin', parents: [folder.json().id] }, {}, '&fields=name,parents');
    const r = await put(uri, 'abc');
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json(), { name: 'child.bin', parents: [folder.json().id] });
  });

  it('rejects a bad X-Upload-Content-Length and unknown uploadType', async () => {
    const r = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable', {
      headers: { 'X-Upload-Content-Length': 'ten' },
    });
    assert.equal(r.status, 400);
    assert.equal(r.json().error.errors[0].location, 'X-Upload-Content-Length');
    const t = await svc.api('POST', '/upload/store/v3/files?uploadType=chunky', {
      body: 'x',
      headers: { 'Content-Type': 'text/plain' },
    });
    assert.equal(t.status, 400);
    assert.equal(t.json().error.errors[0].location, 'uploadType');
  });
});

describe('chunks', () => {
  it('uploads in chunks with 308 + Range, no Location, and completes with md5', async () => {
    const data = bytesOf(KB256 * 2 + 1000);
    const uri = await sessionUri();
    const r1 = await put(uri, data.subarray(0, KB256), `bytes 0-${KB256 - 1}/${data.length}`);
    assert.equal(r1.status, 308);
    assert.equal(r1.headers.range, `bytes=0-${KB256 - 1}`);
    assert.equal(r1.headers.location, undefined);
    assert.equal(r1.headers['content-length'], '0');
    const r2 = await put(uri, data.subarray(KB256, KB256 * 2), `bytes ${KB256}-${KB256 * 2 - 1}/*`);
    assert.equal(r2.status, 308);
    assert.equal(r2.headers.range, `bytes=0-${KB256 * 2 - 1}`);
    const r3 = await put(uri, data.subarray(KB256 * 2), `bytes ${KB256 * 2}-${data.length - 1}/${data.length}`);
    assert.equal(r3.status, 200, r3.text);
    const f = r3.json();
    assert.equal(f.size, String(data.length));
    assert.equal(f.md5Checksum, md5(data));
    const d = await svc.api('GET', `/store/v3/files/${f.id}?alt=media`);
    assert.ok(d.body.equals(data));
    // Every later PUT answers 200 with the same resource and changes nothing.
    const again = await put(uri, 'zzz');
    assert.equal(again.status, 200);
    assert.deepEqual(again.json(), f);
    const status = await put(uri, '', 'bytes */*');
    assert.deepEqual(status.json(), f);
  });

  it('keeps floor(len/256 KiB) blocks of a non-multiple non-final chunk', async () => {
    const data = bytesOf(KB256 * 3, 5);
    const uri = await sessionUri();
    const r = await put(uri, data.subarray(0, KB256 + 100), `bytes 0-${KB256 + 99}/${data.length}`);
    assert.equal(r.status, 308);
    assert.equal(r.headers.range, `bytes=0-${KB256 - 1}`);
    // Overlap: re-sending from an earlier offset ignores what is already stored.
    const r2 = await put(uri, data.subarray(100), `bytes 100-${data.length - 1}/${data.length}`);
    assert.equal(r2.status, 200, r2.text);
    assert.equal(r2.json().md5Checksum, md5(data));
  });

  it('rejects a non-final chunk under 256 KiB with a plain-text 400 and keeps what was stored', async () => {
    const data = bytesOf(KB256 * 2);
    const uri = await sessionUri();
    await put(uri, data.subarray(0, KB256), `bytes 0-${KB256 - 1}/${data.length}`);
    const r = await put(uri, data.subarray(KB256, KB256 + 10), `bytes ${KB256}-${KB256 + 9}/${data.length}`);
    assert.equal(r.status, 400);
    assert.match(String(r.headers['content-type']), /^text\/plain/);
    assert.match(r.text, /262144/);
    const s = await put(uri, '', `bytes */${data.length}`);
    assert.equal(s.status, 308);
    assert.equal(s.headers.range, `bytes=0-${KB256 - 1}`);
  });

  it('answers 503 with the exact text for an offset gap', async () => {
    const uri = await sessionUri();
    const r = await put(uri, bytesOf(KB256), `bytes ${KB256}-${KB256 * 2 - 1}/*`);
    assert.equal(r.status, 503);
    assert.match(String(r.headers['content-type']), /^text\/plain/);
    assert.equal(r.text, `the upload offset is ${KB256} byte(s), which exceeds already uploaded size of 0 byte(s)`);
  });

  it('400 "Failed to parse Content-Range header." for malformed ranges', async () => {
    const uri = await sessionUri();
    for (const bad of [
      'bytes 5-1/10',
      'bytes=0-1/2',
      'bytes 0-1',
      'octets 0-1/2',
      'bytes a-b/c',
      'bytes 0-*/*',
      'bytes -1-2/3',
    ]) {
      const r = await put(uri, 'ab', bad);
      assert.equal(r.status, 400, bad);
      assert.equal(r.text, 'Failed to parse Content-Range header.', bad);
      assert.match(String(r.headers['content-type']), /^text\/plain/);
    }
  });

  it('400 for Content-Length not matching the range, end beyond total, and contradicting totals', async () => {
    const uri = await sessionUri(undefined, { 'X-Upload-Content-Length': String(KB256 * 2) });
    const len = await put(uri, bytesOf(10), `bytes 0-${KB256 - 1}/${KB256 * 2}`);
    assert.equal(len.status, 400);
    assert.match(len.text, /Content-Length is 10/);
    const beyond = await put(uri, bytesOf(KB256 + 1), `bytes 0-${KB256}/${KB256}`);
    assert.equal(beyond.status, 400);
    const declared = await put(uri, bytesOf(KB256), `bytes 0-${KB256 - 1}/${KB256 * 3}`);
    assert.equal(declared.status, 400);
    assert.match(declared.text, /X-Upload-Content-Length/);
    const ok = await put(uri, bytesOf(KB256), `bytes 0-${KB256 - 1}/${KB256 * 2}`);
    assert.equal(ok.status, 308);
    const whole = await put(uri, bytesOf(10));
    assert.equal(whole.status, 400);
    const s = await put(uri, '', 'bytes */*');
    assert.equal(s.headers.range, `bytes=0-${KB256 - 1}`);

    const uri2 = await sessionUri();
    assert.equal((await put(uri2, bytesOf(KB256), `bytes 0-${KB256 - 1}/${KB256 * 4}`)).status, 308);
    const contra = await put(uri2, bytesOf(KB256), `bytes ${KB256}-${KB256 * 2 - 1}/${KB256 * 5}`);
    assert.equal(contra.status, 400);
    assert.match(contra.text, /contradicts/);
  });

  it('a streamed chunk refused for its length keeps none of its bytes: the session holds what it held before', async () => {
    const data = bytesOf(KB256 * 3, 11);
    const uri = await sessionUri();
    assert.equal((await put(uri, data.subarray(0, KB256), `bytes 0-${KB256 - 1}/*`)).status, 308);
    // No Content-Length (chunked): the body's length is known only once it has been written, two blocks for one.
    async function* twoBlocks() {
      yield data.subarray(KB256, KB256 * 2);
      yield data.subarray(KB256 * 2, KB256 * 3);
    }
    const refused = await svc.api('PUT', uri, {
      token: null,
      body: twoBlocks(),
      headers: { 'Content-Range': `bytes ${KB256}-${KB256 * 2 - 1}/*` },
    });
    assert.equal(refused.status, 400, refused.text);
    const status = await put(uri, '', 'bytes */*');
    assert.equal(status.status, 308);
    assert.equal(status.headers.range, `bytes=0-${KB256 - 1}`);
    const rest = await put(uri, data.subarray(KB256), `bytes ${KB256}-${data.length - 1}/${data.length}`);
    assert.equal(rest.status, 200, rest.text);
    assert.equal(rest.json().md5Checksum, md5(data));
  });

  it('accepts bytes F-*/T streams', async () => {
    const data = bytesOf(KB256 + 7);
    const uri = await sessionUri();
    const r1 = await put(uri, data.subarray(0, KB256), `bytes 0-*/${data.length}`);
    assert.equal(r1.status, 308);
    const r2 = await put(uri, data.subarray(KB256), `bytes ${KB256}-*/${data.length}`);
    assert.equal(r2.status, 200);
    assert.equal(r2.json().md5Checksum, md5(data));
  });

  it('a last chunk sent with total `*` completes a total the session knows (declared, or told earlier)', async () => {
    const data = bytesOf(KB256 + 6);
    for (const [how, headers, firstTotal] of [
      ['declared', { 'X-Upload-Content-Length': String(data.length) }, '*'],
      ['told earlier', {}, String(data.length)],
    ] as const) {
      const uri = await sessionUri({ name: `star-${how}` }, headers, '&fields=size,md5Checksum');
      const r1 = await put(uri, data.subarray(0, KB256), `bytes 0-${KB256 - 1}/${firstTotal}`);
      assert.equal(r1.status, 308, `${how}: ${r1.text}`);
      const r2 = await put(uri, data.subarray(KB256), `bytes ${KB256}-${data.length - 1}/*`);
      assert.equal(r2.status, 200, `${how}: ${r2.text}`);
      assert.deepEqual(r2.json(), { size: String(data.length), md5Checksum: md5(data) }, how);
    }
  });
});

describe('status queries', () => {
  it('308 without Range when nothing is stored; 400 when the query has a body', async () => {
    const uri = await sessionUri();
    const r = await put(uri, '', 'bytes */*');
    assert.equal(r.status, 308);
    assert.equal(r.headers.range, undefined);
    const b = await put(uri, 'x', 'bytes */10');
    assert.equal(b.status, 400);
  });

  it('bytes */T finishes a session holding exactly T bytes (unknown length and zero length)', async () => {
    const data = bytesOf(KB256);
    const uri = await sessionUri();
    assert.equal((await put(uri, data, `bytes 0-${KB256 - 1}/*`)).status, 308);
    const done = await put(uri, '', `bytes */${KB256}`);
    assert.equal(done.status, 200);
    assert.equal(done.json().md5Checksum, md5(data));

    const empty = await sessionUri();
    const z = await put(empty, '', 'bytes */0');
    assert.equal(z.status, 200);
    assert.equal(z.json().size, '0');
    assert.equal(z.json().md5Checksum, 'd41d8cd98f00b204e9800998ecf8427e');
  });
});

describe('cancel and expiry', () => {
  it('DELETE answers 499 and the URI then answers 404', async () => {
    const uri = await sessionUri();
    const d = await svc.api('DELETE', uri, { token: null });
    assert.equal(d.status, 499);
    assert.equal(d.body.length, 0);
    const r = await put(uri, 'x');
    assert.equal(r.status, 404);
    assert.equal(r.json().error.errors[0].reason, 'notFound');
  });

  it('expires after a week without activity (admin clock)', async () => {
    const uri = await sessionUri();
    assert.equal((await put(uri, bytesOf(KB256), `bytes 0-${KB256 - 1}/*`)).status, 308);
    await svc.api('POST', '/__admin/clock', { token: null, body: { advanceMs: 6 * 24 * 3600 * 1000 } });
    assert.equal((await put(uri, '', 'bytes */*')).status, 308, 'activity resets the timer');
    await svc.api('POST', '/__admin/clock', { token: null, body: { advanceMs: 6 * 24 * 3600 * 1000 } });
    assert.equal((await put(uri, '', 'bytes */*')).status, 308);
    await svc.api('POST', '/__admin/clock', { token: null, body: { advanceMs: 7 * 24 * 3600 * 1000 + 1 } });
    assert.equal((await put(uri, '', 'bytes */*')).status, 404);
  });
});

describe('update sessions', () => {
  it('PUT and PATCH on /upload/store/v3/files/<id> start update sessions whose URI keeps the id', async () => {
    const f = (
      await svc.api('POST', '/upload/store/v3/files?uploadType=media', {
        body: 'old',
        headers: { 'Content-Type': 'text/plain' },
      })
    ).json();
    for (const method of ['PUT', 'PATCH']) {
      const r = await svc.api(method, `/upload/store/v3/files/${f.id}?uploadType=resumable`, {
        body: { name: `new-${method}` },
      });
      assert.equal(r.status, 200, r.text);
      const loc = r.headers.location as string;
      assert.ok(loc.startsWith(`${svc.url}/upload/store/v3/files/${f.id}?uploadType=resumable&upload_id=`));
      const done = await put(loc, `content-${method}`);
      assert.equal(done.status, 200);
      assert.equal(done.json().id, f.id);
      assert.equal(done.json().name, `new-${method}`);
    }
    const d = await svc.api('GET', `/store/v3/files/${f.id}?alt=media`);
    assert.equal(d.text, 'content-PATCH');
    const bob = await svc.api('PUT', `/upload/store/v3/files/${f.id}?uploadType=resumable`, { token: 'dev-token-bob' });
    assert.equal(bob.status, 404);
  });
});
