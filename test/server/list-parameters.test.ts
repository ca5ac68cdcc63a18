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

  it("'root' in parents lists the caller's own files that sit in no folder: not a folder's, not another's", async () => {
    const make = async (body: object, token?: string): Promise<string> => {
      const r = await svc.api('POST', '/store/v3/files?fields=id', { body, ...(token ? { token } : {}) });
      assert.equal(r.status, 200, r.text);
      return (r.json() as { id: string }).id;
    };
    const folder = await make({ name: 'top-folder', mimeType: 'application/vnd.svc-apps.folder' });
    await make({ name: 'top-file' });
    await make({ name: 'inside-file', parents: [folder] });
    const moved = await make({ name: 'moved-out', parents: [folder] });
    const out = await svc.api('PATCH', `/store/v3/files/${moved}?removeParents=${folder}`, { body: {} });
    assert.equal(out.status, 200, out.text);
    // Bob's top-level file, shared with alice, is in her list but not at her top level.
    const shared = await make({ name: 'bobs-top' }, 'dev-token-bob');
    const share = await svc.api('POST', `/store/v3/files/${shared}/permissions`, {
      token: 'dev-token-bob',
      body: { type: 'user', role: 'reader', emailAddress: 'alice@example.com' },
    });
    assert.equal(share.status, 200, share.text);
    const names = async (q: string): Promise<string[]> => {
      const r = await svc.api('GET', `/store/v3/files?q=${encodeURIComponent(q)}&fields=files(name)&pageSize=1000`);
      assert.equal(r.status, 200, r.text);
      return (r.json() as { files: { name: string }[] }).files.map((f) => f.name);
    };
    const atRoot = await names("'root' in parents and trashed = false");
    for (const name of ['top-folder', 'top-file', 'moved-out']) assert.ok(atRoot.includes(name), `${name} at the top`);
    for (const name of ['inside-file', 'bobs-top']) assert.ok(!atRoot.includes(name), `${name} not at the top`);
    assert.ok((await names('trashed = false')).includes('bobs-top'), "bob's file is alice's to list");
    assert.deepEqual(await names(`'root' in parents and name = 'top-file'`), ['top-file']);
  });

  it('pageSize is an integer from 1 to 1000: the bounds are taken, anything else is a 400 naming it', async () => {
    for (const size of ['1', '1000', '']) {
      const r = await svc.api('GET', `/store/v3/files?pageSize=${size}&fields=files(id)`);
      assert.equal(r.status, 200, `${size}: ${r.text}`);
    }
    const one = await svc.api('GET', '/store/v3/files?pageSize=1&fields=files(id)');
    assert.equal((one.json() as { files: unknown[] }).files.length, 1);
    for (const size of ['0', '1001', '1.5', '-1', 'ten', '1e2']) {
      const r = await svc.api('GET', `/store/v3/files?pageSize=${size}`);
      assert.equal(r.status, 400, `${size}: ${r.text}`);
      const body = r.json() as ErrorBody;
      assert.equal(body.error.message, `Invalid value '${size}' for pageSize: must be an integer from 1 to 1000.`);
      assert.deepEqual(body.error.errors[0], {
        ...body.error.errors[0],
        reason: 'invalidParameter',
        location: 'pageSize',
        locationType: 'parameter',
      });
    }
  });

  it("maxResults, the spec's name for the page size, pages as pageSize does; pageSize wins when both come", async () => {
    const files = async (query: string) => {
      const r = await svc.api('GET', `/store/v3/files?${query}&fields=files(id),nextPageToken`);
      assert.equal(r.status, 200, `${query}: ${r.text}`);
      return r.json() as { files: unknown[]; nextPageToken?: string };
    };
    for (const name of ['max-a.txt', 'max-b.txt']) {
      assert.equal((await svc.api('POST', '/store/v3/files?fields=id', { body: { name } })).status, 200);
    }
    const one = await files('maxResults=1');
    assert.equal(one.files.length, 1);
    assert.ok(one.nextPageToken, 'more pages follow');
    assert.equal((await files('maxResults=1&pageSize=2')).files.length, 2);
    const bad = await svc.api('GET', '/store/v3/files?maxResults=0');
    assert.equal(bad.status, 400, bad.text);
    assert.equal(
      (bad.json() as ErrorBody).error.message,
      "Invalid value '0' for maxResults: must be an integer from 1 to 1000.",
    );
  });

  it('pages follow one another to the last, which has no nextPageToken, each file once', async () => {
    for (const name of ['page-a.txt', 'page-b.txt', 'page-c.txt']) {
      assert.equal((await svc.api('POST', '/store/v3/files?fields=id', { body: { name } })).status, 200);
    }
    const all = (
      (await svc.api('GET', '/store/v3/files?pageSize=1000&fields=files(id)')).json() as { files: { id: string }[] }
    ).files.map((f) => f.id);
    const seen: string[] = [];
    let token: string | undefined;
    for (let page = 0; page < all.length + 1; page++) {
      const r = await svc.api(
        'GET',
        `/store/v3/files?pageSize=2&fields=nextPageToken,files(id)${token ? `&pageToken=${token}` : ''}`,
      );
      const body = r.json() as { nextPageToken?: string; files: { id: string }[] };
      seen.push(...body.files.map((f) => f.id));
      token = body.nextPageToken;
      if (token === undefined) break;
    }
    assert.equal(token, undefined, 'the pages never ended');
    assert.deepEqual(seen, all);
    // Without pageSize a page holds 100: these few files all come in one.
    const unpaged = (await svc.api('GET', '/store/v3/files?fields=nextPageToken,files(id)')).json() as {
      nextPageToken?: string;
      files: { id: string }[];
    };
    assert.deepEqual(
      unpaged.files.map((f) => f.id),
      all,
    );
    assert.equal(unpaged.nextPageToken, undefined);
  });

  it('a page token that is not one the service gives is a 400 naming pageToken', async () => {
    // The longest number a token may carry (15 digits) is read: past every file, an empty page.
    const far = await svc.api('GET', `/store/v3/files?pageToken=${tokenOf('p999999999999999')}&fields=files(id)`);
    assert.equal(far.status, 200, far.text);
    assert.deepEqual(far.json(), { files: [] });
    for (const forged of ['p', 'pabc', 'q12', 'p1234567890123456', ' p12']) {
      const r = await svc.api('GET', `/store/v3/files?pageToken=${tokenOf(forged)}`);
      assert.equal(r.status, 400, `${forged}: ${r.text}`);
      assert.equal((r.json() as ErrorBody).error.errors[0]?.location, 'pageToken');
    }
  });

  it('a query of only white space filters nothing: it lists what no q lists', async () => {
    assert.equal((await svc.api('POST', '/store/v3/files', { body: { name: 'blank-q.txt' } })).status, 200);
    const none = await svc.api('GET', '/store/v3/files?fields=files(id)');
    assert.equal(none.status, 200, none.text);
    for (const q of [' ', '  \t ']) {
      const r = await svc.api('GET', `/store/v3/files?fields=files(id)&q=${encodeURIComponent(q)}`);
      assert.equal(r.status, 200, `${JSON.stringify(q)}: ${r.text}`);
      assert.deepEqual(r.json(), none.json());
    }
  });

  it('a query that cannot be read is a 400 naming q', async () => {
    const r = await svc.api('GET', `/store/v3/files?q=${encodeURIComponent("name ~ 'x'")}`);
    assert.equal(r.status, 400, r.text);
    assert.deepEqual((r.json() as ErrorBody).error.errors[0], {
      ...(r.json() as ErrorBody).error.errors[0],
      reason: 'invalidParameter',
      location: 'q',
    });
  });

  it('a trashed condition with more words after it is a 400 naming the whole term, never read as trashed alone', async () => {
    for (const q of ["trashed = false or name = 'one.txt'", 'trashed = trueish']) {
      const r = await svc.api('GET', `/store/v3/files?q=${encodeURIComponent(q)}`);
      assert.equal(r.status, 400, `${q}: ${r.text}`);
      const body = r.json() as ErrorBody;
      assert.ok(body.error.message.startsWith(`Unsupported query term: ${q}. `), body.error.message);
      assert.equal(body.error.errors[0]?.location, 'q');
    }
  });

  it('generateIds gives count ids (10 by default, 1 to 1000) for files or shortcuts in the drive space', async () => {
    const ids = async (query: string) => {
      const r = await svc.api('GET', `/store/v3/files/generateIds${query}`);
      assert.equal(r.status, 200, `${query}: ${r.text}`);
      return r.json() as { kind: string; space: string; ids: string[] };
    };
    const plain = await ids('');
    assert.equal(plain.kind, 'store#generatedIds');
    assert.equal(plain.space, 'drive');
    assert.equal(plain.ids.length, 10);
    assert.equal(new Set(plain.ids).size, 10);
    assert.equal((await ids('?count=1')).ids.length, 1);
    assert.equal((await ids('?count=1000&type=shortcuts&space=drive')).ids.length, 1000);
    for (const [query, location, message] of [
      ['?count=0', 'count', "Invalid value '0' for count: must be an integer from 1 to 1000."],
      ['?count=1001', 'count', "Invalid value '1001' for count: must be an integer from 1 to 1000."],
      ['?space=appDataFolder', 'space', "Invalid value 'appDataFolder' for space: must be drive."],
      ['?type=folders', 'type', "Invalid value 'folders' for type: must be files or shortcuts."],
    ] as const) {
      const r = await svc.api('GET', `/store/v3/files/generateIds${query}`);
      assert.equal(r.status, 400, `${query}: ${r.text}`);
      const body = r.json() as ErrorBody;
      assert.equal(body.error.message, message);
      assert.equal(body.error.errors[0]?.location, location);
    }
  });
});
