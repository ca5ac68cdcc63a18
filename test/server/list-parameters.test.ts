/**
 * Query parameters of the file list, as a client sends them: a page token is only one the service handed out (one
 * with anything after its number is a 400 naming pageToken), an empty `fields` selects the whole answer as none
 * does, and the words of `q` are read in any case.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ServiceHandle, startService } from './helpers/service.ts';

let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

interface ErrorBody {
  error: { code: number; message: string; errors: { reason: string; location?: string; locationType?: string }[] };
}

const tokenOf = (text: string): string => Buffer.from(text, 'latin1').toString('base64url');

describe('the file list parameters', () => {
  it('a page token is the one the service gave: its number followed by anything is a 400 naming pageToken', async () => {
    for (const name of ['one.txt', 'two.txt']) {
      const made = await svc.api('POST', '/store/v3/files?fields=id', { body: { name } });
      assert.equal(made.status, 200, made.text);
    }
    const first = await svc.api('GET', '/store/v3/files?pageSize=1&fields=nextPageToken,files(name)');
    assert.equal(first.status, 200, first.text);
    const given = (first.json() as { nextPageToken: string }).nextPageToken;
    const next = await svc.api('GET', `/store/v3/files?pageSize=1&pageToken=${given}&fields=files(name)`);
    assert.equal(next.status, 200, next.text);
    assert.equal((next.json() as { files: unknown[] }).files.length, 1);

    const forged = `${Buffer.from(given, 'base64url').toString('latin1')}x`;
    const r = await svc.api('GET', `/store/v3/files?pageToken=${tokenOf(forged)}`);
    assert.equal(r.status, 400, r.text);
    const body = r.json() as ErrorBody;
    assert.equal(body.error.message, `Invalid pageToken '${tokenOf(forged)}'.`);
    assert.equal(body.error.errors[0]?.location, 'pageToken');
  });

  it('an empty fields parameter answers the whole list, as no fields parameter does', async () => {
    const none = await svc.api('GET', '/store/v3/files');
    const empty = await svc.api('GET', '/store/v3/files?fields=');
    assert.equal(empty.status, 200, empty.text);
    assert.deepEqual(empty.json(), none.json());
    assert.equal((empty.json() as { kind: string }).kind, 'store#fileList');
  });

  it('the words of a query are read in any case: NAME = and Name = find what name = finds', async () => {
    const find = async (q: string) => {
      const r = await svc.api('GET', `/store/v3/files?fields=files(name)&q=${encodeURIComponent(q)}`);
      assert.equal(r.status, 200, r.text);
      return r.json() as { files: { name: string }[] };
    };
    const lower = await find("name = 'one.txt'");
    assert.deepEqual(lower, { files: [{ name: 'one.txt' }] });
    assert.deepEqual(await find("NAME = 'one.txt'"), lower);
    assert.deepEqual(await find("Name = 'one.txt' AND trashed = FALSE"), lower);
  });
});
