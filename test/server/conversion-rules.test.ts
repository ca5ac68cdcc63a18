/**
 * Checks of the about resource, conversion on import and export (spec §2.3, §4.8; supplement §2, §5) against the
 * real service: the rules `convert-http.test.ts` leaves open — the canonical import-format list, HEAD and POST on
 * about, converting multipart updates, what a converted file's resource carries, export edge cases, media that claims
 * a native type, and OCR workers that start only when needed and go away when idle.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { textPng } from '../fixtures/bitmap-text.ts';
import { type ApiResult, type ServiceHandle, startService } from './helpers/service.ts';

const DOC = 'application/vnd.svc-apps.document';
const SHEET = 'application/vnd.svc-apps.spreadsheet';
const SLIDES = 'application/vnd.svc-apps.presentation';
const SCRIPT = 'application/vnd.svc-apps.script';
const NATIVE = [DOC, SHEET, SLIDES, SCRIPT];

/** The canonical source MIME types the supplement's §5 list names, with the native kind each must reach. */
const REQUIRED_IMPORTS: readonly [string, string][] = [
  ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', DOC],
  ['application/vnd.openxmlformats-officedocument.wordprocessingml.template', DOC],
  ['application/msword', DOC],
  ['application/vnd.oasis.opendocument.text', DOC],
  ['application/rtf', DOC],
  ['text/rtf', DOC],
  ['text/html', DOC],
  ['text/plain', DOC],
  ['text/markdown', DOC],
  ['application/pdf', DOC],
  ['image/jpeg', DOC],
  ['image/png', DOC],
  ['image/gif', DOC],
  ['image/bmp', DOC],
  ['application/vnd.ms-excel', SHEET],
  ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', SHEET],
  ['application/vnd.oasis.opendocument.spreadsheet', SHEET],
  ['text/csv', SHEET],
  ['text/tab-separated-values', SHEET],
  ['text/plain', SHEET],
  ['application/vnd.ms-powerpoint', SLIDES],
  ['application/vnd.openxmlformats-officedocument.presentationml.presentation', SLIDES],
  ['application/vnd.oasis.opendocument.presentation', SLIDES],
  ['application/json', SCRIPT],
  ['application/vnd.svc-apps.script+text/plain', SCRIPT],
];

let svc: ServiceHandle;
before(async () => {
  // OCR workers kept for ten minutes here, so the thread count seen right after an OCR conversion is stable.
  svc = await startService({ config: { ocrIdleMs: 600_000 } });
});
after(() => svc.stop());

function multipart(
  target: ServiceHandle,
  method: 'POST' | 'PUT' | 'PATCH',
  path: string,
  meta: object,
  media: Buffer | string,
  mediaType: string,
): Promise<ApiResult> {
  const body = Buffer.concat([
    Buffer.from(
      `--audit\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n${JSON.stringify(meta)}\r\n--audit\r\nContent-Type: ${mediaType}\r\n\r\n`,
    ),
    Buffer.isBuffer(media) ? media : Buffer.from(media),
    Buffer.from('\r\n--audit--'),
  ]);
  return target.api(method, path, { headers: { 'Content-Type': 'multipart/related; boundary=audit' }, body });
}

function create(meta: object, media: Buffer | string, mediaType: string, query = '', target = svc): Promise<ApiResult> {
  return multipart(target, 'POST', `/upload/store/v3/files?uploadType=multipart${query}`, meta, media, mediaType);
}

function exportAs(id: string, mimeType: string, method = 'GET', target = svc): Promise<ApiResult> {
  return target.api(method, `/store/v3/files/${id}/export?mimeType=${encodeURIComponent(mimeType)}`);
}

function assertError(r: ApiResult, status: number, reason: string, message: string): void {
  assert.equal(r.status, status, r.text);
  assert.equal(r.headers['content-type'], 'application/json; charset=UTF-8');
  const err = r.json().error;
  assert.equal(err.code, status);
  assert.equal(err.message, message);
  assert.equal(err.errors[0].reason, reason);
}

/** OS threads of the service process (each OCR worker is one). */
function threadsOf(target: ServiceHandle): number {
  const m = /^Threads:\s+(\d+)$/m.exec(readFileSync(`/proc/${target.pid}/status`, 'utf8'));
  assert.ok(m, 'no Threads line');
  return Number(m[1]);
}

describe('about', () => {
  test('importFormats holds every canonical source type of the supplement with its native kind; targets are native kinds', async () => {
    const r = await svc.api('GET', '/store/v3/about?fields=importFormats,exportFormats');
    assert.equal(r.status, 200, r.text);
    const { importFormats, exportFormats } = r.json();
    assert.deepEqual(Object.keys(r.json()), ['importFormats', 'exportFormats']);
    for (const [source, kind] of REQUIRED_IMPORTS) {
      assert.ok(Array.isArray(importFormats[source]), `${source} missing`);
      assert.ok(importFormats[source].includes(kind), `${source} → ${kind} missing`);
    }
    for (const [source, kinds] of Object.entries(importFormats as Record<string, string[]>)) {
      assert.match(source, /^[a-z]+\/[a-z0-9.+/-]+$/, source);
      for (const k of kinds) assert.ok(NATIVE.includes(k), `${source} → ${k} is not a native kind`);
    }
    assert.deepEqual(Object.keys(exportFormats).sort(), [...NATIVE].sort());
  });

  test('HEAD answers headers only; POST is 405; a data/ selection is 400 naming fields', async () => {
    const head = await svc.api('HEAD', '/store/v3/about');
    assert.equal(head.status, 200);
    assert.equal(head.headers['content-type'], 'application/json; charset=UTF-8');
    assert.equal(head.body.length, 0);
    const post = await svc.api('POST', '/store/v3/about', { body: {} });
    assert.equal(post.status, 405);
    assert.equal(post.headers.allow, 'GET');
    const data = await svc.api('GET', '/store/v3/about?fields=data/kind');
    assert.equal(data.status, 400);
    assert.equal(data.json().error.errors[0].location, 'fields');
    const nested = await svc.api('GET', '/store/v3/about?fields=kind,user(emailAddress,me)');
    assert.deepEqual(nested.json(), { kind: 'store#about', user: { emailAddress: 'alice@example.com', me: true } });
  });
});

describe('conversion through updates', () => {
  test('a multipart update of a native file converts the new media without repeating mimeType and replaces everything', async () => {
    const made = await create(
      { name: 'sheet', mimeType: SHEET },
      'a,b\r\n1,2\r\n3,4\r\n',
      'text/csv',
      '&fields=id,version',
    );
    assert.equal(made.status, 200, made.text);
    const { id, version } = made.json();
    const upd = await multipart(
      svc,
      'PUT',
      `/upload/store/v3/files/${id}?uploadType=multipart&fields=name,mimeType,size,md5Checksum,version`,
      { name: 'sheet v2' },
      'only\r\n',
      'text/csv',
    );
    assert.equal(upd.status, 200, upd.text);
    assert.deepEqual(upd.json(), { name: 'sheet v2', mimeType: SHEET, version: String(Number(version) + 1) });
    assert.equal((await exportAs(id, 'text/csv')).text, 'only\r\n');
  });

  test('a multipart PATCH with a native mimeType converts an ordinary file; its resource loses size and md5Checksum', async () => {
    const plain = await svc.api('POST', '/upload/store/v3/files?uploadType=media&fields=id,size,md5Checksum', {
      headers: { 'Content-Type': 'text/csv' },
      body: 'q,r\r\n',
    });
    assert.deepEqual(plain.json(), {
      id: plain.json().id,
      size: '5',
      md5Checksum: createHash('md5').update('q,r\r\n').digest('hex'),
    });
    const id = plain.json().id as string;
    const upd = await multipart(
      svc,
      'PATCH',
      `/upload/store/v3/files/${id}?uploadType=multipart`,
      { mimeType: SHEET },
      'n,m\r\n',
      'text/csv',
    );
    assert.equal(upd.status, 200, upd.text);
    const file = upd.json();
    assert.equal(file.mimeType, SHEET);
    assert.equal('size' in file, false);
    assert.equal('md5Checksum' in file, false);
    assert.equal((await exportAs(id, 'text/csv')).text, 'n,m\r\n');
    assertError(
      await svc.api('GET', `/store/v3/files/${id}?alt=media`),
      403,
      'fileNotDownloadable',
      'Only files with binary content can be downloaded. Use Export with Docs Editors files.',
    );
  });

  test('asking for a native kind without media, for a folder with media, or for an unknown native kind is a 400 saying so', async () => {
    const plain = await svc.api('POST', '/store/v3/files?fields=id', {
      body: { name: 'p.txt', mimeType: 'text/plain' },
    });
    const id = plain.json().id as string;
    assertError(
      await svc.api('PATCH', `/store/v3/files/${id}`, { body: { mimeType: DOC } }),
      400,
      'badRequest',
      `Changing the mimeType to ${DOC} needs media to convert.`,
    );
    assertError(
      await create({ mimeType: 'application/vnd.svc-apps.folder' }, 'a,b', 'text/csv'),
      400,
      'badRequest',
      'A folder cannot have content; create it without media.',
    );
    assertError(
      await create({ mimeType: 'application/vnd.svc-apps.drawing' }, 'x', 'image/png'),
      400,
      'badRequest',
      'Media cannot be uploaded as application/vnd.svc-apps.drawing.',
    );
  });

  test('a malformed ocrLanguage is a 400 naming the parameter, and nothing is created', async () => {
    const before = (await svc.api('GET', '/store/v3/files?fields=files(id)')).json().files.length;
    const r = await create({ name: 'scan', mimeType: DOC }, textPng(['HI']), 'image/png', '&ocrLanguage=!!');
    assertError(r, 400, 'invalidParameter', 'Invalid ocrLanguage "!!": not a BCP 47 language tag.');
    assert.equal(r.json().error.errors[0].location, 'ocrLanguage');
    assert.equal((await svc.api('GET', '/store/v3/files?fields=files(id)')).json().files.length, before);
  });
});

describe('export', () => {
  test('HEAD gives the export headers without a body; a mimeType with parameters is accepted; a reader may export', async () => {
    const made = await create({ name: 'e', mimeType: SHEET }, 'x,y\r\n', 'text/csv', '&fields=id');
    const id = made.json().id as string;
    const head = await exportAs(id, 'text/csv', 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.headers['content-type'], 'text/csv; charset=utf-8');
    assert.equal(head.headers['content-length'], '5');
    assert.equal(head.body.length, 0);
    const withParams = await exportAs(id, 'text/csv; charset=utf-8');
    assert.equal(withParams.status, 200, withParams.text);
    assert.equal(withParams.text, 'x,y\r\n');

    assert.equal(
      (await svc.api('GET', `/store/v3/files/${id}/export?mimeType=text/csv`, { token: 'dev-token-bob' })).status,
      404,
    );
    const share = await svc.api('POST', `/store/v3/files/${id}/permissions?fields=id`, {
      body: { type: 'user', role: 'reader', emailAddress: 'bob@example.com' },
    });
    assert.equal(share.status, 200, share.text);
    const bob = await svc.api('GET', `/store/v3/files/${id}/export?mimeType=text/csv`, { token: 'dev-token-bob' });
    assert.equal(bob.status, 200, bob.text);
    assert.equal(bob.text, 'x,y\r\n');
    assert.equal((await svc.api('POST', `/store/v3/files/${id}/export?mimeType=text/csv`)).status, 405);
  });

  test('a file that is not native is not exported: 403 fileNotExportable, pointing at alt=media', async () => {
    const plain = await svc.api('POST', '/upload/store/v3/files?uploadType=media&fields=id', {
      headers: { 'Content-Type': 'text/plain' },
      body: 'plain text',
    });
    assert.equal(plain.status, 200, plain.text);
    const id = plain.json().id as string;
    assertError(
      await exportAs(id, 'text/plain'),
      403,
      'fileNotExportable',
      `Export only supports native files; ${id} is text/plain. Download it with alt=media.`,
    );
  });

  test('media sent with a native Content-Type never ends in a 500: it is refused at upload with a reason, and nothing is stored', async () => {
    const before = (await svc.api('GET', '/store/v3/files?fields=files(id)&pageSize=1000')).json().files.length;
    const up = await svc.api('POST', '/upload/store/v3/files?uploadType=media&fields=id', {
      headers: { 'Content-Type': DOC },
      body: 'raw bytes',
    });
    assertError(
      up,
      400,
      'badRequest',
      `Media cannot be uploaded with the type ${DOC}: it is a native kind; send the bytes in their own type, with mimeType ${DOC} in the metadata to convert them.`,
    );
    assert.equal(up.json().error.errors[0].location, 'Content-Type');
    const after = (await svc.api('GET', '/store/v3/files?fields=files(id)&pageSize=1000')).json().files.length;
    assert.equal(after, before, 'a refused upload stores no file');
  });

  test('media whose Content-Type is a native kind or a folder is refused at upload (it would be stored unconverted)', async () => {
    for (const type of [DOC, SHEET, 'application/vnd.svc-apps.folder']) {
      const r = await svc.api('POST', '/upload/store/v3/files?uploadType=media', {
        headers: { 'Content-Type': type },
        body: 'raw bytes',
      });
      assert.equal(r.status, 400, `${type}: ${r.text}`);
    }
  });
});

describe('OCR workers', () => {
  test('none run until an image is converted; one runs after', async () => {
    // A CSV conversion first: it warms up libuv's thread pool, which is not OCR.
    assert.equal((await create({ name: 'warm', mimeType: SHEET }, 'a\r\n', 'text/csv')).status, 200);
    const idle = threadsOf(svc);
    assert.equal((await create({ name: 'warm2', mimeType: SHEET }, 'b\r\n', 'text/csv')).status, 200);
    assert.equal(threadsOf(svc), idle, 'a non-OCR conversion starts no thread');
    const ocr = await create({ name: 'scan', mimeType: DOC }, textPng(['HELLO']), 'image/png', '&fields=id');
    assert.equal(ocr.status, 200, ocr.text);
    assert.ok(threadsOf(svc) > idle, 'the OCR worker thread is running');
    assert.match((await exportAs(ocr.json().id, 'text/plain')).text, /HELLO/);
    const mem = (await svc.api('GET', '/__admin/memory', { token: null })).json();
    assert.equal(typeof mem.rss, 'number');
  });

  test('an idle OCR worker is terminated (thread count returns to what it was); the next image starts a new one', async () => {
    const quick = await startService({ config: { ocrIdleMs: 0 } });
    try {
      assert.equal((await create({ name: 'warm', mimeType: SHEET }, 'a\r\n', 'text/csv', '', quick)).status, 200);
      const idle = threadsOf(quick);
      for (const word of ['FIRST', 'AGAIN']) {
        const r = await create({ name: word, mimeType: DOC }, textPng([word]), 'image/png', '&fields=id', quick);
        assert.equal(r.status, 200, r.text);
        assert.match((await exportAs(r.json().id, 'text/plain', 'GET', quick)).text, new RegExp(word));
        // Polls (bounded) for the worker to finish terminating; asserts the end state, not how long it took.
        // eslint-disable-next-line no-restricted-syntax -- time-wait: the poll interval of a bounded state check; a worker thread's exit has no event to wait for.
        for (let i = 0; i < 200 && threadsOf(quick) > idle; i++) await new Promise((r) => setTimeout(r, 50));
        assert.equal(threadsOf(quick), idle, `after ${word}`);
      }
    } finally {
      await quick.stop();
    }
  });
});
