/**
 * Checks of uploads against spec §3.1, §4.1–4.5 and supplement §1–§2: the resumable rules one by one, simple and
 * multipart edge cases, and what a sloppy client sends. Every rejected request is checked to leave stored bytes alone.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { bytesOf } from './helpers/bytes.ts';
import { type ApiResult, type ServiceHandle, startService } from './helpers/service.ts';

const KB256 = 256 * 1024;
const EMPTY_MD5 = 'd41d8cd98f00b204e9800998ecf8427e';
let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

const md5 = (b: Uint8Array | string) => createHash('md5').update(b).digest('hex');

async function start(meta?: object, headers: Record<string, string> = {}, query = ''): Promise<string> {
  const r = await svc.api('POST', `/upload/store/v3/files?uploadType=resumable${query}`, {
    ...(meta ? { body: meta } : {}),
    headers,
  });
  assert.equal(r.status, 200, r.text);
  return r.headers.location as string;
}

const put = (uri: string, body: Uint8Array | string, range?: string, headers: Record<string, string> = {}) =>
  svc.api('PUT', uri, { token: null, body, headers: { ...(range ? { 'Content-Range': range } : {}), ...headers } });

/** Asserts a plain-text upload-protocol 400 with exactly `text` (or matching it). */
function assertPlain400(r: ApiResult, text: string | RegExp): void {
  assert.equal(r.status, 400, r.text);
  assert.match(String(r.headers['content-type']), /^text\/plain/);
  if (typeof text === 'string') assert.equal(r.text, text);
  else assert.match(r.text, text);
}

async function stored(uri: string): Promise<string | undefined> {
  const s = await put(uri, '', 'bytes */*');
  assert.equal(s.status, 308, s.text);
  return s.headers.range as string | undefined;
}

describe('resumable: session start', () => {
  it('takes name, parents and mimeType from the start body; X-Upload-Content-Type is the media type', async () => {
    const folder = (
      await svc.api('POST', '/store/v3/files', { body: { name: 'in', mimeType: 'application/vnd.svc-apps.folder' } })
    ).json();
    const uri = await start(
      { name: 'report.csv', parents: [folder.id], mimeType: 'text/csv' },
      { 'X-Upload-Content-Type': 'text/plain' },
    );
    const r = await put(uri, 'a,b');
    assert.equal(r.status, 200, r.text);
    const f = r.json();
    assert.equal(f.name, 'report.csv');
    assert.deepEqual(f.parents, [folder.id]);
    assert.equal(f.mimeType, 'text/csv');
    const noMeta = await start(undefined, { 'X-Upload-Content-Type': 'image/png' });
    assert.equal((await put(noMeta, 'png')).json().mimeType, 'image/png');
  });

  it('rejects a start with metadata but no JSON Content-Type, and a parent that does not exist, before any session exists', async () => {
    const r = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable', {
      body: '{"name":"x"}',
      headers: { 'Content-Type': 'text/plain' },
    });
    assert.equal(r.status, 400);
    assert.equal(r.json().error.errors[0].location, 'Content-Type');
    assert.equal(r.headers.location, undefined);
    const p = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable', {
      body: { parents: ['missing-folder'] },
    });
    assert.equal(p.status, 404);
    assert.equal(p.json().error.message, 'File not found: missing-folder.');
  });

  it('rejects an X-Upload-Content-Type that is not a MIME type and a negative X-Upload-Content-Length', async () => {
    const t = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable', {
      headers: { 'X-Upload-Content-Type': 'not a type' },
    });
    assert.equal(t.status, 400);
    assert.equal(
      t.json().error.message,
      'The X-Upload-Content-Type header "not a type" is not a MIME type (type/subtype).',
    );
    assert.equal(t.json().error.errors[0].location, 'X-Upload-Content-Type');
    const n = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable', {
      headers: { 'X-Upload-Content-Length': '-5' },
    });
    assert.equal(n.status, 400);
    assert.equal(n.json().error.message, 'X-Upload-Content-Length must be a byte count; got "-5".');
  });

  it('a bad fields selection on the start is a 400 before any session or file exists', async () => {
    const r = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable&fields=nosuch', {
      body: { name: 'never-created' },
    });
    assert.equal(r.status, 400);
    assert.equal(r.json().error.message, 'Invalid field selection nosuch');
    assert.equal(r.headers.location, undefined);
    const list = (await svc.api('GET', `/store/v3/files?q=${encodeURIComponent("name = 'never-created'")}`)).json();
    assert.deepEqual(list.files, []);
  });

  it('uses a pre-generated id from the start body; 403 for one with a native kind', async () => {
    const [id, other] = (await svc.api('GET', '/store/v3/files/generateIds?count=2')).json().ids;
    const uri = await start({ id, name: 'with-id' });
    const r = await put(uri, 'x');
    assert.equal(r.json().id, id);
    const doc = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable', {
      body: { id: other, mimeType: 'application/vnd.svc-apps.document' },
    });
    assert.equal(doc.status, 403);
    assert.equal(doc.json().error.message, 'Generated IDs are not supported for Docs Editors formats.');
    const again = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable', { body: { id } });
    assert.equal(again.status, 409);
    assert.equal(again.json().error.errors[0].reason, 'fileIdInUse');
  });
});

describe('resumable: status queries', () => {
  it('answers 308 without Range (bytes */* and bytes */T) before any bytes, with Resume Incomplete and no Location', async () => {
    const uri = await start();
    for (const range of ['bytes */*', `bytes */${KB256 * 2}`]) {
      const r = await put(uri, '', range);
      assert.equal(r.status, 308);
      assert.equal(r.headers.range, undefined);
      assert.equal(r.headers.location, undefined);
      assert.equal(r.headers['content-length'], '0');
      assert.equal(r.body.length, 0);
    }
  });

  it('an unknown-length upload sent with total * is finished by bytes */T', async () => {
    const data = bytesOf(KB256 * 2);
    const uri = await start({ name: 'stream' });
    assert.equal((await put(uri, data.subarray(0, KB256), `bytes 0-${KB256 - 1}/*`)).status, 308);
    assert.equal((await put(uri, data.subarray(KB256), `bytes ${KB256}-${KB256 * 2 - 1}/*`)).status, 308);
    assert.equal(await stored(uri), `bytes=0-${KB256 * 2 - 1}`);
    const done = await put(uri, '', `bytes */${data.length}`);
    assert.equal(done.status, 200, done.text);
    assert.equal(done.json().size, String(data.length));
    assert.equal(done.json().md5Checksum, md5(data));
    assert.ok((await svc.api('GET', `/store/v3/files/${done.json().id}?alt=media`)).body.equals(data));
  });

  it('a zero-length upload is finished by bytes */0 and is an empty file with the md5 of nothing', async () => {
    const uri = await start({ name: 'empty.txt' }, { 'X-Upload-Content-Type': 'text/plain' });
    const r = await put(uri, '', 'bytes */0');
    assert.equal(r.status, 200);
    assert.equal(r.json().size, '0');
    assert.equal(r.json().md5Checksum, EMPTY_MD5);
    const d = await svc.api('GET', `/store/v3/files/${r.json().id}?alt=media`);
    assert.equal(d.status, 200);
    assert.equal(d.body.length, 0);
  });

  it('a total smaller than the bytes stored is a 400 and the session stays usable', async () => {
    const data = bytesOf(KB256 * 2 + 5);
    const uri = await start();
    assert.equal((await put(uri, data.subarray(0, KB256 * 2), `bytes 0-${KB256 * 2 - 1}/*`)).status, 308);
    assertPlain400(
      await put(uri, '', 'bytes */100'),
      `The total size 100 is smaller than the ${KB256 * 2} byte(s) already stored for this upload.`,
    );
    assertPlain400(await put(uri, bytesOf(10), 'bytes 0-9/10'), /smaller than/);
    const whole = await put(uri, bytesOf(10));
    assertPlain400(whole, `The body has 10 byte(s) but ${KB256 * 2} byte(s) of this upload are already stored.`);
    assert.equal(await stored(uri), `bytes=0-${KB256 * 2 - 1}`);
    const done = await put(uri, data.subarray(KB256 * 2), `bytes ${KB256 * 2}-${data.length - 1}/${data.length}`);
    assert.equal(done.status, 200, done.text);
    assert.equal(done.json().md5Checksum, md5(data));
  });
});

describe('resumable: chunks', () => {
  it('a final chunk of any size completes; the single-request whole file needs no Content-Range', async () => {
    const one = await start();
    const r = await put(one, 'abc', 'bytes 0-2/3');
    assert.equal(r.status, 200);
    assert.equal(r.json().md5Checksum, md5('abc'));
    const whole = await start();
    const w = await put(whole, bytesOf(KB256 + 1));
    assert.equal(w.status, 200);
    assert.equal(w.json().size, String(KB256 + 1));
  });

  it('a non-final chunk of 256 KiB + 1 keeps one block; re-sending the overlap appends only the rest', async () => {
    const data = bytesOf(KB256 * 2 + 10, 9);
    const uri = await start();
    const r = await put(uri, data.subarray(0, KB256 + 1), `bytes 0-${KB256}/${data.length}`);
    assert.equal(r.status, 308);
    assert.equal(r.headers.range, `bytes=0-${KB256 - 1}`);
    // Overlap that lies wholly inside what is stored: nothing changes.
    const inside = await put(uri, data.subarray(0, KB256), `bytes 0-${KB256 - 1}/${data.length}`);
    assert.equal(inside.status, 308);
    assert.equal(inside.headers.range, `bytes=0-${KB256 - 1}`);
    const rest = await put(uri, data.subarray(10), `bytes 10-${data.length - 1}/${data.length}`);
    assert.equal(rest.status, 200, rest.text);
    assert.equal(rest.json().md5Checksum, md5(data));
  });

  it('a gap answers 503 with the exact text and keeps the stored bytes', async () => {
    const uri = await start();
    assert.equal((await put(uri, bytesOf(KB256), `bytes 0-${KB256 - 1}/*`)).status, 308);
    const gap = await put(uri, bytesOf(KB256), `bytes ${KB256 * 2}-${KB256 * 3 - 1}/*`);
    assert.equal(gap.status, 503);
    assert.match(String(gap.headers['content-type']), /^text\/plain/);
    assert.equal(
      gap.text,
      `the upload offset is ${KB256 * 2} byte(s), which exceeds already uploaded size of ${KB256} byte(s)`,
    );
    assert.equal(await stored(uri), `bytes=0-${KB256 - 1}`);
  });

  it('a total contradicting X-Upload-Content-Length, and a whole file of another size, are 400 and lose nothing', async () => {
    const uri = await start(undefined, { 'X-Upload-Content-Length': String(KB256 + 3) });
    assert.equal((await put(uri, bytesOf(KB256), `bytes 0-${KB256 - 1}/${KB256 + 3}`)).status, 308);
    assertPlain400(await put(uri, '', 'bytes */7'), /smaller than|contradicts/);
    assertPlain400(
      await put(uri, bytesOf(3), `bytes ${KB256}-${KB256 + 2}/${KB256 + 4}`),
      `The total size ${KB256 + 4} contradicts the total ${KB256 + 3} given earlier for this upload.`,
    );
    assert.equal(await stored(uri), `bytes=0-${KB256 - 1}`);
    const done = await put(uri, bytesOf(KB256 + 3).subarray(KB256), `bytes ${KB256}-${KB256 + 2}/${KB256 + 3}`);
    assert.equal(done.status, 200);
    assert.equal(done.json().md5Checksum, md5(bytesOf(KB256 + 3)));
  });

  it('a Content-Length that differs from the range is a 400; a rejected chunk does not record its total', async () => {
    const uri = await start();
    assertPlain400(
      await put(uri, bytesOf(5), `bytes 0-${KB256 - 1}/${KB256 * 2}`),
      `Content-Length is 5 but Content-Range bytes 0-${KB256 - 1}/${KB256 * 2} covers ${KB256} byte(s).`,
    );
    // The rejected request's total (2 blocks) was not kept, so another total is still accepted.
    const r = await put(uri, 'abc', 'bytes 0-2/3');
    assert.equal(r.status, 200, r.text);
  });

  it('bytes F-*/T streams finish when the body reaches T; a stream past T is a 400', async () => {
    const uri = await start();
    assertPlain400(
      await put(uri, bytesOf(20), 'bytes 0-*/10'),
      'The body runs past the total of 10 byte(s) in Content-Range bytes 0-*/10.',
    );
    const ok = await put(uri, bytesOf(10), 'bytes 0-*/10');
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.json().size, '10');
  });

  it('malformed, empty and duplicated Content-Range headers answer the exact parse error', async () => {
    const uri = await start();
    for (const bad of ['', 'bytes', 'bytes */-1', 'bytes 0-1/2/3', 'bytes 0-99999999999999999/*', 'bytes 1-0/*']) {
      const r = await put(uri, bad === '' ? '' : 'ab', undefined, { 'Content-Range': bad });
      assertPlain400(r, 'Failed to parse Content-Range header.');
    }
  });
});

describe('resumable: after completion, cancel', () => {
  it('every PUT after completion answers 200 with the same resource (fields from the start) and changes nothing', async () => {
    const uri = await start({ name: 'final' }, {}, '&fields=id,name,size,version');
    const done = await put(uri, 'first');
    assert.equal(done.status, 200);
    const f = done.json();
    assert.deepEqual(Object.keys(f), ['id', 'name', 'size', 'version']);
    for (const [body, range] of [
      ['other bytes', undefined],
      ['', 'bytes */5'],
      ['', 'bytes */*'],
      ['zz', 'bytes 0-1/2'],
    ] as const) {
      const again = await put(uri, body, range);
      assert.equal(again.status, 200);
      assert.deepEqual(again.json(), f);
    }
    assert.equal((await svc.api('GET', `/store/v3/files/${f.id}?alt=media`)).text, 'first');
    assert.equal((await svc.api('GET', `/store/v3/files/${f.id}?fields=version`)).json().version, f.version);
  });

  it('DELETE answers 499 Client Closed Request with no body; then PUT and DELETE answer 404', async () => {
    const uri = await start();
    assert.equal((await put(uri, bytesOf(KB256), `bytes 0-${KB256 - 1}/*`)).status, 308);
    const d = await svc.api('DELETE', uri, { token: null });
    assert.equal(d.status, 499);
    assert.equal(d.body.length, 0);
    assert.equal((await put(uri, '', 'bytes */*')).status, 404);
    const again = await svc.api('DELETE', uri, { token: null });
    assert.equal(again.status, 404);
    assert.equal(again.json().error.errors[0].reason, 'notFound');
  });

  it('an unknown upload_id answers 404; POST and PATCH on a session URI are refused', async () => {
    const r = await put(`${svc.url}/upload/store/v3/files?uploadType=resumable&upload_id=nope`, '', 'bytes */*');
    assert.equal(r.status, 404);
    assert.equal(r.json().error.errors[0].location, 'upload_id');
    const uri = await start();
    const post = await svc.api('POST', uri);
    assert.equal(post.status, 400);
    assert.equal(post.json().error.message, 'A session URI (upload_id) takes PUT for bytes or DELETE to cancel.');
    const patch = await svc.api('PATCH', uri);
    assert.equal(patch.status, 405);
  });

  it('an update session answers only on its own /files/<id> URI', async () => {
    const f = (await svc.api('POST', '/store/v3/files', { body: { name: 'target' } })).json();
    const r = await svc.api('PATCH', `/upload/store/v3/files/${f.id}?uploadType=resumable`, {
      body: { name: 'renamed' },
    });
    const uri = r.headers.location as string;
    assert.ok(uri.includes(`/upload/store/v3/files/${f.id}?uploadType=resumable&upload_id=`), uri);
    const wrong = uri.replace(`/files/${f.id}?`, '/files?');
    assert.equal((await put(wrong, '', 'bytes */*')).status, 404);
    const done = await put(uri, 'new');
    assert.equal(done.json().id, f.id);
    assert.equal(done.json().name, 'renamed');
    assert.equal(done.json().version, '2');
  });
});

describe('simple upload', () => {
  it('requires a Content-Type that is a MIME type, and stores nothing otherwise', async () => {
    const before = (await svc.api('GET', '/store/v3/files?fields=files(id)&pageSize=1000')).json().files.length;
    const none = await svc.api('POST', '/upload/store/v3/files?uploadType=media', { body: 'abc' });
    assert.equal(none.status, 400);
    assert.equal(
      none.json().error.message,
      'uploadType=media needs a Content-Type header with the MIME type of the bytes.',
    );
    assert.equal(none.json().error.errors[0].location, 'Content-Type');
    const bad = await svc.api('POST', '/upload/store/v3/files?uploadType=media', {
      body: 'abc',
      headers: { 'Content-Type': 'garbage' },
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.json().error.message, 'The Content-Type header "garbage" is not a MIME type (type/subtype).');
    const after = (await svc.api('GET', '/store/v3/files?fields=files(id)&pageSize=1000')).json().files.length;
    assert.equal(after, before);
  });

  it('names the file "Untitled", keeps the type without parameters, and stores an empty body as an empty file', async () => {
    const r = await svc.api('POST', '/upload/store/v3/files?uploadType=media', {
      body: '',
      headers: { 'Content-Type': 'Text/Plain; charset=UTF-8' },
    });
    assert.equal(r.status, 200);
    const f = r.json();
    assert.equal(f.name, 'Untitled');
    assert.equal(f.mimeType, 'text/plain');
    assert.equal(f.size, '0');
    assert.equal(f.md5Checksum, EMPTY_MD5);
  });

  it('refuses media typed as a native kind or a folder when nothing converts it; the script import type is media', async () => {
    for (const type of ['application/vnd.svc-apps.document', 'application/vnd.svc-apps.folder']) {
      const r = await svc.api('POST', '/upload/store/v3/files?uploadType=media', {
        body: 'raw',
        headers: { 'Content-Type': type },
      });
      assert.equal(r.status, 400, type);
      assert.match(r.json().error.message, new RegExp(`^Media cannot be uploaded with the type ${type}: `));
      const s = await svc.api('POST', '/upload/store/v3/files?uploadType=resumable', {
        headers: { 'X-Upload-Content-Type': type },
      });
      assert.equal(s.status, 400, type);
      assert.equal(s.headers.location, undefined);
    }
    const script = await svc.api('POST', '/upload/store/v3/files?uploadType=media', {
      body: 'function f() {}',
      headers: { 'Content-Type': 'application/vnd.svc-apps.script+text/plain' },
    });
    assert.equal(script.status, 200, script.text);
    assert.equal(script.json().mimeType, 'application/vnd.svc-apps.script+text/plain');
  });

  it('a bad fields selection stores nothing', async () => {
    const r = await svc.api('POST', '/upload/store/v3/files?uploadType=media&fields=id,bogus', {
      body: 'unique-bytes-42',
      headers: { 'Content-Type': 'text/plain' },
    });
    assert.equal(r.status, 400);
    assert.equal(r.json().error.errors[0].location, 'fields');
    const list = (await svc.api('GET', '/store/v3/files?fields=files(md5Checksum)&pageSize=1000')).json().files;
    assert.equal(
      list.some((x: { md5Checksum?: string }) => x.md5Checksum === md5('unique-bytes-42')),
      false,
    );
  });

  it('sends media to the metadata path with a clear 400', async () => {
    const r = await svc.api('POST', '/store/v3/files?uploadType=media', {
      body: 'x',
      headers: { 'Content-Type': 'text/plain' },
    });
    assert.equal(r.status, 400);
    assert.equal(
      r.json().error.message,
      'uploadType=media uploads media to /upload/store/v3/files; /store/v3/files takes JSON metadata only.',
    );
  });
});

describe('multipart tolerance', () => {
  const send = (body: string, boundary = 'b') =>
    svc.api('POST', '/upload/store/v3/files?uploadType=multipart&fields=name,mimeType,size', {
      body: Buffer.from(body, 'latin1'),
      headers: { 'Content-Type': `multipart/related; boundary=${boundary}` },
    });

  it('accepts a leading CRLF, no CRLF after the close, case-insensitive and unknown part headers', async () => {
    const body =
      '\r\n--b\r\ncontent-type: APPLICATION/JSON; Charset=utf-8\r\nX-Extra: 1\r\n\r\n{"name":"m.txt"}\r\n' +
      '--b\r\nCONTENT-TYPE: text/plain\r\nContent-Transfer-Encoding: binary\r\n\r\nhello\r\n--b--';
    const r = await send(body);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json(), { name: 'm.txt', mimeType: 'text/plain', size: '5' });
  });

  it('rejects a first part without Content-Type, metadata with bad UTF-8, and a wrong boundary, each saying why', async () => {
    const noType = await send('--b\r\n\r\n{}\r\n--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b--');
    assert.equal(noType.status, 400);
    assert.equal(
      noType.json().error.message,
      'The first part must be the metadata as application/json; its Content-Type is missing.',
    );
    const utf = await send(
      '--b\r\nContent-Type: application/json\r\n\r\n{"name":"\xff"}\r\n--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b--',
    );
    assert.equal(utf.status, 400);
    assert.match(utf.json().error.message, /^The metadata part is not valid JSON/);
    const wrong = await send(
      '--b\r\nContent-Type: application/json\r\n\r\n{}\r\n--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b--',
      'c',
    );
    assert.equal(wrong.status, 400);
    assert.equal(wrong.json().error.message, 'The body does not contain the opening boundary delimiter "--c".');
  });
});

describe('an empty upload_id', () => {
  it('names no session: a PUT or a DELETE on the upload collection with it is a 400 naming upload_id', async () => {
    const put = await svc.api('PUT', '/upload/store/v3/files?upload_id=', { body: 'bytes' });
    assert.equal(put.status, 400, put.text);
    assert.deepEqual(
      [put.json().error.message, put.json().error.errors[0]?.location],
      ['PUT on the upload collection needs a session URI (upload_id); create files with POST.', 'upload_id'],
    );
    const del = await svc.api('DELETE', '/upload/store/v3/files?upload_id=');
    assert.equal(del.status, 400, del.text);
    assert.deepEqual(
      [del.json().error.message, del.json().error.errors[0]?.location],
      ['DELETE on the upload path cancels a session and needs upload_id.', 'upload_id'],
    );
  });
});

describe('the upload path', () => {
  it('needs an uploadType it knows, naming the three', async () => {
    const none = await svc.api('POST', '/upload/store/v3/files', { body: 'x' });
    assert.equal(none.status, 400, none.text);
    assert.deepEqual(
      [none.json().error.message, none.json().error.errors[0]?.location],
      ['The uploadType parameter is required on the upload path: media, multipart or resumable.', 'uploadType'],
    );
    const chunked = await svc.api('POST', '/upload/store/v3/files?uploadType=chunked', { body: 'x' });
    assert.equal(chunked.status, 400, chunked.text);
    assert.deepEqual(
      [chunked.json().error.message, chunked.json().error.errors[0]?.location],
      ["Invalid value 'chunked' for uploadType: must be media, multipart or resumable.", 'uploadType'],
    );
  });

  it('an empty upload_id is no session URI: without a token the call is refused as unauthenticated', async () => {
    for (const method of ['PUT', 'DELETE']) {
      // A DELETE carries no body (through the cluster's proxy, one with a body was a bare 400 from a node's parser).
      const body = method === 'PUT' ? 'bytes' : undefined;
      const r = await svc.api(method, '/upload/store/v3/files?upload_id=', { token: null, body });
      assert.equal(r.status, 401, `${method}: ${r.text}`);
    }
  });
});
