/**
 * Export of a native file whose stored bytes are not its native content (`server/handlers/export.ts`): a data
 * folder holding such bytes (written by hand, damaged, or from before uploads were refused a native Content-Type)
 * gets the spec's 403 fileNotExportable naming what is wrong, never a 500.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type ServiceHandle, startService } from './helpers/service.ts';

const DOC = 'application/vnd.svc-apps.document';

let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

/** Every file below `dir`. */
function filesBelow(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

describe('export of damaged native content', () => {
  it('a document whose stored bytes are not a document is 403 fileNotExportable, naming its type', async () => {
    const boundary = 'exp0rt';
    const body =
      `--${boundary}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n` +
      `${JSON.stringify({ name: 'notes', mimeType: DOC })}\r\n` +
      `--${boundary}\r\nContent-Type: text/plain\r\n\r\nsome notes\r\n--${boundary}--`;
    const made = await svc.api('POST', '/upload/store/v3/files?uploadType=multipart&fields=id,mimeType', {
      body,
      headers: { 'Content-Type': `multipart/related; boundary=${boundary}` },
    });
    assert.equal(made.status, 200, made.text);
    const { id, mimeType } = made.json() as { id: string; mimeType: string };
    assert.equal(mimeType, DOC);
    const fine = await svc.api('GET', `/store/v3/files/${id}/export?mimeType=text/plain`);
    assert.equal(fine.status, 200, fine.text);
    assert.match(fine.text, /some notes/);

    // The one stored object holding the document's native content: its bytes are replaced by plain text.
    const stored = filesBelow(join(svc.dataDir, 'content')).filter((p) =>
      readFileSync(p, 'utf8').includes('some notes'),
    );
    assert.equal(stored.length, 1, `one stored object holds the document: ${stored.join(', ')}`);
    writeFileSync(stored[0] as string, 'not a document at all');

    const r = await svc.api('GET', `/store/v3/files/${id}/export?mimeType=text/plain`);
    assert.equal(r.status, 403, r.text);
    const error = (r.json() as { error: { message: string; errors: { reason: string; location?: string }[] } }).error;
    assert.equal(error.errors[0]?.reason, 'fileNotExportable');
    assert.equal(error.errors[0]?.location, 'fileId');
    assert.match(error.message, new RegExp(`^${id} holds bytes that were stored as ${DOC} without conversion`));
  });
});
