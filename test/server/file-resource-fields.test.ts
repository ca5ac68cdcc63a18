/**
 * What a client reads back of a file it created: the `originalFilename` it gave, kept as given, and people named as
 * the service names them — the owner and each permission with the part of the address before the `@` as
 * `displayName`, and the whole address as `emailAddress` — and `owners[0].me` true only for the owner reading it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ServiceHandle, startService } from './helpers/service.ts';

let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

describe('a file resource', () => {
  it('keeps the originalFilename it was created with', async () => {
    const made = await svc.api('POST', '/store/v3/files?fields=id,originalFilename', {
      body: { name: 'Report', originalFilename: 'report-final (2).docx' },
    });
    assert.equal(made.status, 200, made.text);
    assert.equal((made.json() as { originalFilename?: string }).originalFilename, 'report-final (2).docx');
    const read = await svc.api('GET', `/store/v3/files/${(made.json() as { id: string }).id}?fields=originalFilename`);
    assert.deepEqual(read.json(), { originalFilename: 'report-final (2).docx' });
  });

  it('names its owner and each person it is shared with by the part of the address before the @', async () => {
    const made = await svc.api('POST', '/store/v3/files?fields=id', { body: { name: 'shared-names.txt' } });
    const id = (made.json() as { id: string }).id;
    const shared = await svc.api('POST', `/store/v3/files/${id}/permissions?fields=displayName,emailAddress`, {
      body: { type: 'user', role: 'reader', emailAddress: 'Gina.Marsh@example.com' },
    });
    assert.equal(shared.status, 200, shared.text);
    assert.deepEqual(shared.json(), { displayName: 'gina.marsh', emailAddress: 'gina.marsh@example.com' });
    const read = await svc.api(
      'GET',
      `/store/v3/files/${id}?fields=owners(displayName,emailAddress),permissions(role,displayName)`,
    );
    assert.deepEqual(read.json(), {
      owners: [{ displayName: 'alice', emailAddress: 'alice@example.com' }],
      permissions: [
        { role: 'owner', displayName: 'alice' },
        { role: 'reader', displayName: 'gina.marsh' },
      ],
    });
  });

  it('tells its owner they are the owner (owners[0].me), and tells another reader they are not', async () => {
    const made = await svc.api('POST', '/store/v3/files?fields=id,owners(emailAddress,me)', {
      body: { name: 'whose.txt' },
    });
    assert.equal(made.status, 200, made.text);
    const { id, owners } = made.json() as { id: string; owners: unknown };
    assert.deepEqual(owners, [{ emailAddress: 'alice@example.com', me: true }]);
    const shared = await svc.api('POST', `/store/v3/files/${id}/permissions`, {
      body: { type: 'user', role: 'reader', emailAddress: 'bob@example.com' },
    });
    assert.equal(shared.status, 200, shared.text);
    const byOwner = await svc.api('GET', `/store/v3/files/${id}?fields=owners(emailAddress,me)`);
    assert.deepEqual(byOwner.json(), { owners: [{ emailAddress: 'alice@example.com', me: true }] });
    const byReader = await svc.api('GET', `/store/v3/files/${id}?fields=owners(emailAddress,me)`, {
      token: 'dev-token-bob',
    });
    assert.equal(byReader.status, 200, byReader.text);
    assert.deepEqual(byReader.json(), { owners: [{ emailAddress: 'alice@example.com', me: false }] });
  });
});
