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
});
