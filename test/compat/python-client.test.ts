/**
 * Google's Python client (Debian's python3-googleapi, run as /usr/bin/python3) against the real service, built
 * from a discovery document rewritten to /store/v3 (`store-v3-discovery.json`). `python_client.py` makes the
 * calls and prints a report; this test checks it against what the service stored (GET ?alt=media from here).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type ServiceHandle, startService } from '../server/helpers/service.ts';

const HERE = import.meta.dirname;
const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');

/** Runs the Python script (bounded by `timeout`) and parses its JSON report. */
function runPython(url: string): Promise<any> {
  return new Promise((resolve, reject) => {
    execFile(
      '/usr/bin/python3',
      [join(HERE, 'python_client.py'), url, 'dev-token-alice', join(HERE, 'store-v3-discovery.json')],
      { timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) =>
        err ? reject(new Error(`python client failed: ${err.message}\n${stderr}`)) : resolve(JSON.parse(stdout)),
    );
  });
}

describe('Google Python client (python3-googleapi) against store-service', { timeout: 180_000 }, () => {
  let svc: ServiceHandle;
  let report: any;
  before(async () => {
    svc = await startService();
    report = await runPython(svc.url);
  });
  after(() => svc.stop());

  const stored = async (id: string) => {
    const r = await svc.api('GET', `/store/v3/files/${id}?alt=media`);
    assert.equal(r.status, 200);
    return r.body;
  };

  it('about and changes.getStartPageToken answer with store# kinds', () => {
    assert.equal(report.about.kind, 'store#about');
    assert.equal(report.about.user.emailAddress, 'alice@example.com');
    assert.equal(report.startPageToken.kind, 'store#startPageToken');
    assert.match(report.startPageToken.startPageToken, /^\d+$/);
    // The client sends Accept-Encoding: gzip and a User-Agent with "(gzip)", so JSON answers come compressed (§4.10).
    assert.equal(report.seen[0].encoding, 'gzip');
  });

  it('multipart creates framed with bare LF keep content ending in CR, CRLF and --', async () => {
    const multipart = report.seen.filter((s: any) => s.uploadType === 'multipart' && s.method === 'POST');
    assert.ok(
      multipart.length >= 3 && multipart.every((s: any) => s.status === 200 && s.path === '/upload/store/v3/files'),
    );
    // The first file was replaced later by the simple update; check the other two here, the first below.
    for (const m of report.multipart.slice(1)) {
      const bytes = await stored(m.file.id);
      assert.equal(bytes.toString('hex'), m.hex, m.file.name);
      assert.equal(m.file.md5Checksum, m.localMd5);
      assert.equal(m.file.size, String(m.localSize));
    }
    const first = report.multipart[0];
    assert.equal(first.file.md5Checksum, first.localMd5, 'the CR-ending create stored every byte');
    assert.equal(first.file.name, 'ends-cr.txt');
  });

  it('a resumable chunked upload (1 MiB chunks, next_chunk loop) stores every byte', async () => {
    const { file, progress, localMd5, localSize } = report.resumable;
    assert.deepEqual(
      progress,
      [1, 2, 3].map((n) => n * 1024 * 1024),
    );
    assert.equal(file.md5Checksum, localMd5);
    assert.equal(file.size, String(localSize));
    assert.deepEqual(
      Object.keys(file).sort(),
      ['id', 'md5Checksum', 'name', 'size'],
      'fields of the start request shape the final answer',
    );
    assert.equal(md5(await stored(file.id)), localMd5);
    const puts = report.seen
      .filter((s: any) => s.uploadType === 'resumable')
      .map((s: any) => `${s.method} ${s.status}`);
    assert.deepEqual(puts, ['POST 200', 'PUT 308', 'PUT 308', 'PUT 308', 'PUT 200']);
  });

  it('get_media with MediaIoBaseDownload (Range requests) returns the stored bytes', () => {
    assert.equal(report.download.md5, report.resumable.localMd5);
    assert.equal(report.download.size, report.resumable.localSize);
    const gets = report.seen.filter(
      (s: any) => s.method === 'GET' && s.path === `/store/v3/files/${report.resumable.file.id}`,
    );
    assert.ok(gets.length === 4 && gets.every((s: any) => s.status === 206), JSON.stringify(gets));
  });

  it('a simple media update (PATCH uploadType=media) replaces the content', async () => {
    const { file, localMd5, hex } = report.simpleUpdate;
    assert.equal(file.md5Checksum, localMd5);
    assert.equal(file.version, '2');
    assert.equal((await stored(file.id)).toString('hex'), hex);
    assert.ok(report.seen.some((s: any) => s.method === 'PATCH' && s.uploadType === 'media' && s.status === 200));
  });

  it('fields narrows get and list; q filters the list', () => {
    assert.deepEqual(Object.keys(report.getFields).sort(), ['id', 'md5Checksum', 'name']);
    assert.equal(report.getFields.md5Checksum, report.simpleUpdate.localMd5);
    assert.deepEqual(report.listFields, { files: [{ id: report.multipart[1].file.id, name: 'ends-crlf.txt' }] });
  });

  it('list_next pages through every file (pageSize 2, nextPageToken only while more remain)', () => {
    // At that point: three multipart files and the big one.
    assert.deepEqual(report.pages, [2, 2]);
  });

  it('generateIds, create with a pre-generated id, and the 409 on retry', () => {
    assert.equal(report.generateIds.kind, 'store#generatedIds');
    assert.equal(report.generateIds.ids.length, 2);
    assert.deepEqual(report.createWithId, { id: report.generateIds.ids[0], name: 'pre-generated.txt' });
    assert.deepEqual(report.createWithIdAgain, {
      status: 409,
      reason: 'fileIdInUse',
      message: 'A file already exists with the provided ID.',
    });
  });

  it('a batch of permission creates (POST /batch/store/v3) calls back once per request', async () => {
    assert.match(report.batch.bob.id, /\S/);
    assert.match(report.batch.domain.id, /\S/);
    assert.deepEqual(report.batch.missing, {
      status: 404,
      reason: 'notFound',
      message: 'File not found: no-such-file.',
    });
    assert.ok(report.seen.some((s: any) => s.path === '/batch/store/v3' && s.status === 200));
    const perms = (await svc.api('GET', `/store/v3/files/${report.resumable.file.id}/permissions`)).json();
    const shared = perms.permissions.map((p: any) => `${p.type}:${p.role}:${p.emailAddress ?? p.domain}`).sort();
    assert.deepEqual(shared, [
      'domain:writer:example.com',
      'user:owner:alice@example.com',
      'user:reader:bob@example.com',
    ]);
  });

  it('a CSV create converts to a native spreadsheet, exports back to CSV, and get_media is refused', () => {
    assert.equal(report.convert.file.mimeType, 'application/vnd.svc-apps.spreadsheet');
    assert.equal(report.convert.file.size, undefined);
    assert.equal(report.convert.exported.replace(/\r\n/g, '\n'), 'name,count\napples,3\npears,5\n');
    assert.equal(report.nativeGetMedia.status, 403);
    assert.equal(report.nativeGetMedia.reason, 'fileNotDownloadable');
  });

  it('watch errors and delete reach the client with the spec reasons', () => {
    assert.equal(report.watchHttp.status, 400);
    assert.equal(report.watchHttp.reason, 'push.webhookUrlNotHttps');
    assert.equal(report.getDeleted.status, 404);
    assert.ok(report.seen.some((s: any) => s.method === 'DELETE' && s.status === 204));
  });
});
