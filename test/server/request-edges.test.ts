/**
 * Edges of request validation the other suites pass by: an empty pageToken is the first page, a boolean query
 * parameter takes only true or false, a fault's match fields must be strings (the message says which, after
 * "Invalid fault: "), and an admin-issued token is answered with what was granted.
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
  error: { code: number; message: string; errors: { reason: string; location?: string }[] };
}

describe('request edges', () => {
  it('an empty pageToken lists the first page, as no pageToken does', async () => {
    const made = await svc.api('POST', '/store/v3/files?fields=id', { body: { name: 'first-page.txt' } });
    assert.equal(made.status, 200, made.text);
    const none = await svc.api('GET', '/store/v3/files?fields=files(id)');
    const empty = await svc.api('GET', '/store/v3/files?fields=files(id)&pageToken=');
    assert.equal(empty.status, 200, empty.text);
    assert.deepEqual(empty.json(), none.json());
    assert.ok((empty.json() as { files: unknown[] }).files.length > 0);
  });

  it('sendNotificationEmail other than true or false is a 400 naming it', async () => {
    const made = await svc.api('POST', '/store/v3/files?fields=id', { body: { name: 'shared.txt' } });
    const id = (made.json() as { id: string }).id;
    const r = await svc.api('POST', `/store/v3/files/${id}/permissions?sendNotificationEmail=yes`, {
      body: { type: 'user', role: 'reader', emailAddress: 'gina@example.com' },
    });
    assert.equal(r.status, 400, r.text);
    const body = r.json() as ErrorBody;
    assert.equal(body.error.errors[0]?.location, 'sendNotificationEmail');
    const listed = await svc.api('GET', `/store/v3/files/${id}/permissions?fields=permissions(emailAddress)`);
    assert.deepEqual(
      (listed.json() as { permissions: { emailAddress?: string }[] }).permissions.map((p) => p.emailAddress),
      ['alice@example.com'],
    );
  });

  it('a fault whose match.method is not a string is refused: "Invalid fault: match.method must be a string"', async () => {
    const r = await svc.api('POST', '/__admin/faults', {
      token: null,
      body: { match: { method: 5 }, action: { type: 'status', status: 503 } },
    });
    assert.equal(r.status, 400, r.text);
    assert.equal((r.json() as ErrorBody).error.message, 'Invalid fault: match.method must be a string');
    assert.deepEqual((await svc.api('GET', '/__admin/faults', { token: null })).json(), { faults: [] });
  });

  it('a token issued at run time is answered with the grant: token, user, client and serviceAccount', async () => {
    const r = await svc.api('POST', '/__admin/tokens', {
      token: null,
      body: { token: 'tok-hana', user: 'hana@example.com', client: 'reports', serviceAccount: true },
    });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json(), {
      token: 'tok-hana',
      user: 'hana@example.com',
      client: 'reports',
      serviceAccount: true,
    });
  });

  it('an answer to a request without an Origin lets any origin read its timing', async () => {
    const r = await svc.api('GET', '/store/v3/about?fields=user');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers['timing-allow-origin'], '*');
  });

  it('a folder cannot be turned into a file by its metadata', async () => {
    const made = await svc.api('POST', '/store/v3/files?fields=id', {
      body: { name: 'stays-a-folder', mimeType: 'application/vnd.svc-apps.folder' },
    });
    const id = (made.json() as { id: string }).id;
    const r = await svc.api('PATCH', `/store/v3/files/${id}`, { body: { mimeType: 'text/plain' } });
    assert.equal(r.status, 400, r.text);
    assert.equal((r.json() as ErrorBody).error.message, 'A file cannot be turned into a folder or back.');
    const after = await svc.api('GET', `/store/v3/files/${id}?fields=mimeType`);
    assert.deepEqual(after.json(), { mimeType: 'application/vnd.svc-apps.folder' });
  });

  it('a writer changes a file’s name and content and shares it, but only its owner deletes it', async () => {
    const made = await svc.api('POST', '/upload/store/v3/files?uploadType=media&fields=id', {
      token: 'dev-token-bob',
      body: 'bob’s text',
      headers: { 'Content-Type': 'text/plain' },
    });
    const id = (made.json() as { id: string }).id;
    const share = await svc.api('POST', `/store/v3/files/${id}/permissions`, {
      token: 'dev-token-bob',
      body: { type: 'user', role: 'writer', emailAddress: 'alice@example.com' },
    });
    assert.equal(share.status, 200, share.text);
    const renamed = await svc.api('PATCH', `/store/v3/files/${id}?fields=name`, { body: { name: 'by-alice.txt' } });
    assert.equal(renamed.status, 200, renamed.text);
    const content = await svc.api('PATCH', `/upload/store/v3/files/${id}?uploadType=media&fields=size`, {
      body: 'alice’s text',
      headers: { 'Content-Type': 'text/plain' },
    });
    assert.equal(content.status, 200, content.text);
    const reshare = await svc.api('POST', `/store/v3/files/${id}/permissions`, {
      body: { type: 'user', role: 'reader', emailAddress: 'ivy@example.com' },
    });
    assert.equal(reshare.status, 200, reshare.text);
    assert.equal((await svc.api('DELETE', `/store/v3/files/${id}`)).status, 403);
    assert.equal(
      (await svc.api('GET', `/store/v3/files/${id}?alt=media`, { token: 'dev-token-bob' })).text,
      'alice’s text',
    );
  });

  it('a path no route serves is a 404 whose message names it', async () => {
    const r = await svc.api('GET', '/store/v3/no-such-thing');
    assert.equal(r.status, 404, r.text);
    assert.equal((r.json() as ErrorBody).error.message, 'No API endpoint at /store/v3/no-such-thing.');
  });

  it('a fault whose match is an array is refused: "match" must be an object', async () => {
    const r = await svc.api('POST', '/__admin/faults', {
      token: null,
      body: { match: [], action: { type: 'status', status: 503 } },
    });
    assert.equal(r.status, 400, r.text);
    assert.equal((r.json() as ErrorBody).error.message, 'Invalid fault: "match" must be an object');
  });

  it('an id this service did not generate is a 400 pointing at the id in the body', async () => {
    const r = await svc.api('POST', '/store/v3/files', { body: { id: 'not-one-of-ours', name: 'x.txt' } });
    assert.equal(r.status, 400, r.text);
    const body = (r.json() as ErrorBody).error;
    assert.equal(body.message, 'The provided file ID is not usable.');
    const error = body.errors[0] as { reason: string; location?: string; locationType?: string } | undefined;
    assert.deepEqual([error?.reason, error?.location, error?.locationType], ['invalidParameter', 'id', 'body']);
  });

  it('the id of a file the service named itself is in use: a create with it is a 409, never a second file', async () => {
    const made = await svc.api('POST', '/store/v3/files?fields=id', { body: { name: 'named-by-the-service.txt' } });
    const { id } = made.json() as { id: string };
    const again = await svc.api('POST', '/store/v3/files', { body: { id, name: 'same-id.txt' } });
    assert.equal(again.status, 409, again.text);
    assert.equal((again.json() as ErrorBody).error.message, 'A file already exists with the provided ID.');
    const read = await svc.api('GET', `/store/v3/files/${id}?fields=name`);
    assert.deepEqual(read.json(), { name: 'named-by-the-service.txt' });
  });

  it('a storage quota of 0 bytes is one (every upload with bytes refused); -1 is not', async () => {
    try {
      const zero = await svc.api('PUT', '/__admin/storage-quota', { token: null, body: { limit: 0 } });
      assert.equal(zero.status, 200, zero.text);
      assert.deepEqual(zero.json(), { limit: 0 });
      const negative = await svc.api('PUT', '/__admin/storage-quota', { token: null, body: { limit: -1 } });
      assert.equal(negative.status, 400, negative.text);
    } finally {
      await svc.api('PUT', '/__admin/storage-quota', { token: null, body: { limit: null } });
    }
  });

  it('over a lowered storage quota, a file’s content may still be replaced by as many bytes', async () => {
    const made = await svc.api('POST', '/upload/store/v3/files?uploadType=media&fields=id', {
      body: 'twelve bytes',
      headers: { 'Content-Type': 'text/plain' },
    });
    const id = (made.json() as { id: string }).id;
    try {
      assert.equal((await svc.api('PUT', '/__admin/storage-quota', { token: null, body: { limit: 1 } })).status, 200);
      const same = await svc.api('PATCH', `/upload/store/v3/files/${id}?uploadType=media&fields=size`, {
        body: 'same  length',
        headers: { 'Content-Type': 'text/plain' },
      });
      assert.equal(same.status, 200, same.text);
      const more = await svc.api('PATCH', `/upload/store/v3/files/${id}?uploadType=media`, {
        body: 'thirteen bytes',
        headers: { 'Content-Type': 'text/plain' },
      });
      assert.equal(more.status, 403, more.text);
    } finally {
      await svc.api('PUT', '/__admin/storage-quota', { token: null, body: { limit: null } });
    }
  });
});
