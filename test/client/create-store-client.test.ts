// The store client's own calls against the real reference service: a permission made with `createPermission` lets
// the other account in, a base URL written with trailing slashes reaches the same service, and a call's `fields`
// selection reaches the service, which answers with those fields only.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createStoreClient, StoreError, type StoreClient } from '../../src/client/index.ts';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';

let service: ServiceHandle;
let alice: StoreClient;
let bob: StoreClient;
before(async () => {
  service = await startService();
  alice = createStoreClient({ baseUrl: service.url, getAccessToken: () => 'dev-token-alice' });
  bob = createStoreClient({ baseUrl: service.url, getAccessToken: () => 'dev-token-bob' });
});
after(async () => {
  await service.stop();
});

test('createPermission shares a file: the service answers the permission, and the other account can read the file', async () => {
  const file = await alice.files.create({ name: 'shared.txt' }, { fields: ['id'] });
  await assert.rejects(bob.files.get(file.id!, { fields: ['id'] }), (error: StoreError) => {
    assert.equal(error.status, 404);
    return true;
  });
  const permission = await alice.createPermission(
    file.id!,
    { type: 'user', role: 'reader', emailAddress: 'bob@example.com' },
    { fields: ['id', 'type', 'role', 'emailAddress'] },
  );
  assert.equal(typeof permission.id, 'string');
  assert.deepEqual(
    { type: permission.type, role: permission.role, emailAddress: permission.emailAddress },
    { type: 'user', role: 'reader', emailAddress: 'bob@example.com' },
  );
  assert.equal((await bob.files.get(file.id!, { fields: ['id', 'name'] })).name, 'shared.txt');
});

test('a base URL with trailing slashes reaches the same service as one without', async () => {
  for (const baseUrl of [`${service.url}/`, `${service.url}///`]) {
    const client = createStoreClient({ baseUrl, getAccessToken: () => 'dev-token-alice' });
    const about = await client.about({ fields: 'user' });
    assert.equal(about.user?.emailAddress, 'alice@example.com', baseUrl);
    const made = await client.files.create({ name: 'via-slash.txt' }, { fields: ['id'] });
    assert.equal((await alice.files.get(made.id!, { fields: 'name' })).name, 'via-slash.txt', baseUrl);
  }
});

test('a call’s fields selection is sent: the answer holds those fields only, written as a string or a list', async () => {
  const made = await alice.files.create({ name: 'fields.txt', mimeType: 'text/plain' }, { fields: 'id' });
  assert.deepEqual(Object.keys(made), ['id']);
  assert.deepEqual(await alice.files.get(made.id!, { fields: ['name', 'mimeType'] }), {
    name: 'fields.txt',
    mimeType: 'text/plain',
  });
  const everything = await alice.files.get(made.id!);
  assert.ok(Object.keys(everything).length > 2, 'without a selection the service answers its default fields');
});
