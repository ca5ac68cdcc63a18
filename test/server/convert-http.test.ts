/**
 * Conversion over real HTTP against the real service: the about resource, converting uploads (multipart,
 * resumable, simple update), export, and the 400/403 answers for bad input.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import ExcelJS from 'exceljs';
import { textPng } from '../fixtures/bitmap-text.ts';
import { docx } from '../fixtures/office-fixtures.ts';
import { type ApiResult, type ServiceHandle, startService } from './helpers/service.ts';

const DOC = 'application/vnd.svc-apps.document';
const SHEET = 'application/vnd.svc-apps.spreadsheet';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

/** A `multipart/related` create: metadata JSON, then the media. */
function multipart(meta: object, media: Buffer | string, mediaType: string, query = ''): Promise<ApiResult> {
  const boundary = 'convert_boundary_7';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n${JSON.stringify(meta)}\r\n--${boundary}\r\nContent-Type: ${mediaType}\r\n\r\n`,
    ),
    Buffer.isBuffer(media) ? media : Buffer.from(media),
    Buffer.from(`\r\n--${boundary}--`),
  ]);
  return svc.api('POST', `/upload/store/v3/files?uploadType=multipart${query}`, {
    headers: { 'Content-Type': `multipart/related; boundary=${boundary}` },
    body,
  });
}

/** A resumable create (or update with `fileId`) sending the whole media in one PUT. */
async function resumable(
  meta: object | undefined,
  media: Buffer | string,
  mediaType: string,
  query = '',
  fileId?: string,
): Promise<ApiResult> {
  const bytes = Buffer.isBuffer(media) ? media : Buffer.from(media);
  const start = await svc.api(
    fileId ? 'PUT' : 'POST',
    `/upload/store/v3/files${fileId ? `/${fileId}` : ''}?uploadType=resumable${query}`,
    {
      headers: { 'X-Upload-Content-Type': mediaType, 'X-Upload-Content-Length': String(bytes.length) },
      ...(meta ? { body: meta } : {}),
    },
  );
  assert.equal(start.status, 200, start.text);
  return svc.api('PUT', start.headers.location as string, {
    token: null,
    headers: { 'Content-Type': mediaType },
    body: bytes,
  });
}

function exportAs(id: string, mimeType: string): Promise<ApiResult> {
  return svc.api('GET', `/store/v3/files/${id}/export?mimeType=${encodeURIComponent(mimeType)}`);
}

function assertError(r: ApiResult, status: number, reason: string, ...fragments: string[]): void {
  assert.equal(r.status, status, r.text);
  assert.equal(r.headers['content-type'], 'application/json; charset=UTF-8');
  const err = r.json().error;
  assert.equal(err.code, status);
  assert.equal(err.errors[0].reason, reason);
  for (const f of fragments) assert.ok(err.message.includes(f), `"${err.message}" should mention "${f}"`);
}

describe('about', () => {
  test('full resource without fields', async () => {
    const r = await svc.api('GET', '/store/v3/about');
    assert.equal(r.status, 200, r.text);
    const a = r.json();
    assert.equal(a.kind, 'store#about');
    assert.equal(a.user.emailAddress, 'alice@example.com');
    assert.equal(a.user.me, true);
    assert.equal(a.user.kind, 'store#user');
    assert.deepEqual(a.importFormats['text/csv'], [SHEET]);
    assert.deepEqual(a.importFormats['text/plain'], [DOC, SHEET]);
    assert.deepEqual(a.importFormats['image/png'], [DOC]);
    assert.deepEqual(a.exportFormats[SHEET], [
      'text/csv',
      'text/tab-separated-values',
      XLSX,
      'application/vnd.oasis.opendocument.spreadsheet',
    ]);
    assert.equal(a.maxImportSizes[DOC], '10485760');
    assert.equal(a.maxUploadSize, '5497558138880');
    assert.equal(typeof a.storageQuota.usage, 'string');
  });

  test('fields narrows it; a bad selection is 400; no token is 401', async () => {
    const r = await svc.api('GET', '/store/v3/about?fields=maxUploadSize,user(emailAddress)');
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json(), { maxUploadSize: '5497558138880', user: { emailAddress: 'alice@example.com' } });
    assertError(await svc.api('GET', '/store/v3/about?fields=nope'), 400, 'invalidParameter', 'nope');
    assertError(await svc.api('GET', '/store/v3/about', { token: null }), 401, 'required');
  });

  test("storage usage counts the caller's media", async () => {
    const before = Number((await svc.api('GET', '/store/v3/about?fields=storageQuota')).json().storageQuota.usage);
    const up = await svc.api('POST', '/upload/store/v3/files?uploadType=media', {
      headers: { 'Content-Type': 'text/plain' },
      body: '12345',
    });
    assert.equal(up.status, 200, up.text);
    const after = Number((await svc.api('GET', '/store/v3/about?fields=storageQuota')).json().storageQuota.usage);
    assert.equal(after - before, 5);
  });
});

describe('conversion on upload and export', () => {
  test('CSV → spreadsheet (multipart) → CSV and XLSX', async () => {
    const csv = 'name,qty\r\n"Smith, J",3\r\nplain,007\r\n';
    const r = await multipart({ name: 'stock', mimeType: SHEET }, csv, 'text/csv');
    assert.equal(r.status, 200, r.text);
    const file = r.json();
    assert.equal(file.mimeType, SHEET);
    assert.equal(file.size, undefined);
    const out = await exportAs(file.id, 'text/csv');
    assert.equal(out.status, 200, out.text);
    assert.equal(out.headers['content-type'], 'text/csv; charset=utf-8');
    assert.equal(out.text, csv);
    const x = await exportAs(file.id, XLSX);
    assert.equal(x.status, 200);
    assert.equal(x.headers['content-type'], XLSX);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(x.body as unknown as ArrayBuffer);
    assert.equal(wb.worksheets[0].getCell('A2').value, 'Smith, J');
    assert.equal(wb.worksheets[0].getCell('B2').value, 3);
    const media = await svc.api('GET', `/store/v3/files/${file.id}?alt=media`);
    assertError(media, 403, 'fileNotDownloadable');
  });

  test('DOCX → document (resumable) → text', async () => {
    const r = await resumable({ name: 'report', mimeType: DOC }, await docx('Quarterly report', ['Sales rose.']), DOCX);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json().mimeType, DOC);
    const out = await exportAs(r.json().id, 'text/plain');
    assert.equal(out.status, 200);
    assert.equal(out.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(out.text, 'Quarterly report\nSales rose.\n');
    const html = await exportAs(r.json().id, 'text/html');
    assert.match(html.text, /<h1>Quarterly report<\/h1>\n<p>Sales rose\.<\/p>/);
  });

  test('PNG with words → document via OCR, English and French', async () => {
    const en = await multipart(
      { name: 'scan', mimeType: DOC },
      textPng(['HELLO WORLD']),
      'image/png',
      '&ocrLanguage=en',
    );
    assert.equal(en.status, 200, en.text);
    assert.match((await exportAs(en.json().id, 'text/plain')).text, /HELLO WORLD/);
    const fr = await resumable(
      { name: 'scan-fr', mimeType: DOC },
      textPng(['BONJOUR LE MONDE', 'MERCI BEAUCOUP']),
      'image/png',
      '&ocrLanguage=fr',
    );
    assert.equal(fr.status, 200, fr.text);
    const text = (await exportAs(fr.json().id, 'text/plain')).text;
    assert.match(text, /BONJOUR LE MONDE/);
    assert.match(text, /MERCI BEAUCOUP/);
  });

  test('an update that converts replaces the whole content (simple and resumable)', async () => {
    const created = await multipart({ name: 'sheet', mimeType: SHEET }, 'a,b\r\n1,2\r\n', 'text/csv');
    const id = created.json().id as string;
    const simple = await svc.api('PUT', `/upload/store/v3/files/${id}?uploadType=media`, {
      headers: { 'Content-Type': 'text/csv' },
      body: 'only\r\n',
    });
    assert.equal(simple.status, 200, simple.text);
    assert.equal(simple.json().mimeType, SHEET);
    assert.equal((await exportAs(id, 'text/csv')).text, 'only\r\n');
    const again = await resumable(undefined, 'x\ty\r\n', 'text/tab-separated-values', '', id);
    assert.equal(again.status, 200, again.text);
    assert.equal((await exportAs(id, 'text/csv')).text, 'x,y\r\n');
  });
});

describe('bad input', () => {
  test('corrupt DOCX → 400 saying so; nothing is created', async () => {
    const before = (await svc.api('GET', '/store/v3/files?fields=files(id)')).json().files.length;
    const r = await multipart({ name: 'bad', mimeType: DOC }, 'not a zip at all', DOCX);
    assertError(r, 400, 'badRequest', 'not a valid Word document');
    assert.equal((await svc.api('GET', '/store/v3/files?fields=files(id)')).json().files.length, before);
  });

  test('unsupported pair → 400 naming both types', async () => {
    const r = await multipart({ name: 'z', mimeType: SHEET }, 'PK', 'application/zip');
    assertError(r, 400, 'badRequest', 'application/zip', SHEET);
    const p = await multipart({ name: 'p', mimeType: 'application/vnd.svc-apps.presentation' }, 'a,b', 'text/csv');
    assertError(p, 400, 'badRequest', 'text/csv', 'application/vnd.svc-apps.presentation');
  });

  test('a resumable start that names a type it cannot convert, or a malformed ocrLanguage, is refused before a byte is sent', async () => {
    const start = (meta: object, type: string, query = '') =>
      svc.api('POST', `/upload/store/v3/files?uploadType=resumable${query}`, {
        headers: { 'X-Upload-Content-Type': type, 'X-Upload-Content-Length': '2' },
        body: meta,
      });
    const before = (await svc.api('GET', '/store/v3/files?fields=files(id)')).json();
    assertError(
      await start({ name: 'z', mimeType: SHEET }, 'application/zip'),
      400,
      'badRequest',
      'application/zip',
      SHEET,
    );
    const bad = await start({ name: 'o', mimeType: DOC }, 'image/png', '&ocrLanguage=not%20a%20tag');
    assertError(bad, 400, 'invalidParameter', '"not a tag"');
    assert.equal(bad.json().error.errors[0].location, 'ocrLanguage');
    // Untyped media named like a type it converts, a type it converts, a language without OCR data: all start.
    for (const [meta, type, query] of [
      [{ name: 'data.csv', mimeType: SHEET }, 'application/octet-stream', ''],
      [{ name: 'scan', mimeType: DOC }, 'image/png', '&ocrLanguage=ja'],
    ] as const) {
      const r = await start(meta, type, query);
      assert.equal(r.status, 200, `${meta.name}: ${r.text}`);
    }
    assert.deepEqual((await svc.api('GET', '/store/v3/files?fields=files(id)')).json(), before, 'no file was made');
  });

  test('a multipart upload whose media part names a type it cannot convert is refused before its media is stored', async () => {
    const r = await multipart({ name: 'z', mimeType: DOC }, 'PK', 'application/zip');
    assertError(r, 400, 'badRequest', 'application/zip', DOC);
    const named = await multipart({ name: 'n.csv', mimeType: SHEET }, 'a,b\r\n', 'application/octet-stream');
    assert.equal(named.status, 200, named.text);
  });

  test('over maxImportSizes → 400 naming the limit', async () => {
    const r = await resumable({ name: 'big', mimeType: DOC }, Buffer.alloc(10 * 1024 * 1024 + 1, 0x61), 'text/plain');
    assertError(r, 400, 'badRequest', '10485761', '10485760');
  });

  test('an ocrLanguage the OCR has no data for converts (a hint: English data); a malformed one → 400 invalidParameter', async () => {
    const ok = await multipart({ name: 'x', mimeType: DOC }, textPng(['HI']), 'image/png', '&ocrLanguage=de');
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.json().mimeType, DOC);
    const csv = await multipart({ name: 'y', mimeType: SHEET }, 'a,b\r\n', 'text/csv', '&ocrLanguage=ja');
    assert.equal(csv.status, 200, csv.text);
    const r = await multipart({ name: 'z', mimeType: DOC }, textPng(['HI']), 'image/png', '&ocrLanguage=not%20a%20tag');
    assertError(r, 400, 'invalidParameter', '"not a tag"');
    assert.equal(r.json().error.errors[0].location, 'ocrLanguage');
  });

  test('pre-generated ID with a converting upload → 403', async () => {
    const ids = (await svc.api('GET', '/store/v3/files/generateIds?count=1')).json().ids as string[];
    const r = await multipart({ id: ids[0], name: 'x', mimeType: SHEET }, 'a,b', 'text/csv');
    assertError(r, 403, 'forbidden', 'Generated IDs are not supported');
  });

  test('export: bad type 400 naming it, missing type 400, non-native 403, unknown file 404', async () => {
    const sheet = (await multipart({ name: 's', mimeType: SHEET }, 'a\r\n', 'text/csv')).json().id as string;
    assertError(await exportAs(sheet, 'image/png'), 400, 'invalidParameter', 'image/png', SHEET);
    assertError(await svc.api('GET', `/store/v3/files/${sheet}/export`), 400, 'required', 'mimeType');
    const plain = await svc.api('POST', '/upload/store/v3/files?uploadType=media', {
      headers: { 'Content-Type': 'text/plain' },
      body: 'hi',
    });
    assertError(await exportAs(plain.json().id, 'text/plain'), 403, 'fileNotExportable');
    assertError(await exportAs('no-such-file', 'text/plain'), 404, 'notFound');
  });

  test('a native file created without media exports as empty', async () => {
    const r = await svc.api('POST', '/store/v3/files', { body: { name: 'blank', mimeType: DOC } });
    assert.equal(r.status, 200, r.text);
    const out = await exportAs(r.json().id, 'text/plain');
    assert.equal(out.status, 200);
    assert.equal(out.text, '');
  });
});
