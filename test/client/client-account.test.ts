// The typed client follows the signed-in account (issue 37): one client whose getter switches from Alice's token to
// Bob's makes every later call as Bob, whatever the app calls in between, against the real reference service. What
// the service saw is the proof: the owner of the file it created, and every Authorization header the client sent.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { calls, createStoreClient } from '../../src/client/index.ts';
import { driveOf } from './helpers/accounts.ts';

const ALICE = 'dev-token-alice';
const BOB = 'dev-token-bob';

let service: ServiceHandle;
before(async () => {
  service = await startService();
});
after(async () => {
  await service.stop();
});

/** A client whose getter gives `signedIn.token`, and the bearer token of every request it sent, in order. */
function clientOf(signedIn: { token: string }) {
  const sent: string[] = [];
  const client = createStoreClient({
    baseUrl: service.url,
    getAccessToken: () => signedIn.token,
    fetch: (input, init) => {
      const headers = new Headers(init?.headers);
      sent.push(headers.get('authorization') ?? '(none)');
      return fetch(input, init);
    },
  });
  return { client, sent };
}

test('the getter switches from Alice to Bob between two calls: the second call is Bob’s at the service', async () => {
  const signedIn = { token: ALICE };
  const { client, sent } = clientOf(signedIn);
  const first = await client.files.create({ name: `alice-${randomUUID()}.txt` }, { fields: 'id,owners(emailAddress)' });
  assert.deepEqual(
    first.owners?.map((o) => o.emailAddress),
    ['alice@example.com'],
  );

  signedIn.token = BOB; // the app signed in as Bob, and told the client nothing
  const second = await client.files.create(
    { name: `bob-${randomUUID()}.txt` },
    { fields: 'id,name,owners(emailAddress)' },
  );
  assert.deepEqual(
    second.owners?.map((o) => o.emailAddress),
    ['bob@example.com'],
  );
  assert.ok((await driveOf(service.url, BOB)).includes(second.name!));
  assert.ok(!(await driveOf(service.url, ALICE)).includes(second.name!));
  assert.deepEqual(sent, [`Bearer ${ALICE}`, `Bearer ${BOB}`]);
});

test('after the switch no call of any kind carries Alice’s token: get, list, update, batch, download, about, IDs', async () => {
  const signedIn = { token: ALICE };
  const { client, sent } = clientOf(signedIn);
  // Alice uses every kind of call once, so nothing is first asked for after the switch.
  const alices = await client.files.create({ name: `alice-${randomUUID()}.txt` });
  await client.files.list({ pageSize: 1 });
  await client.about({ fields: 'user' });
  await client.generateIds(1);
  await client.batch([calls.getFile(alices.id)]);
  const before = sent.length;

  signedIn.token = BOB;
  const bobs = await client.request<{ id: string }>('POST', '/upload/store/v3/files', {
    query: { uploadType: 'media' },
    body: 'bob’s bytes',
    headers: { 'content-type': 'text/plain' },
  });
  const about = await client.about({ fields: 'user' });
  assert.equal(about.user?.emailAddress, 'bob@example.com');
  const listed = await client.files.list({ pageSize: 1000, fields: 'files(id)' });
  assert.ok(!listed.files?.some((f) => f.id === alices.id), 'Bob’s list shows none of Alice’s files');
  await assert.rejects(client.files.get(alices.id), (e: { status: number }) => e.status === 404);
  await client.files.update(bobs.id, { name: 'renamed by bob.txt' });
  assert.equal(await (await client.files.download(bobs.id)).text(), 'bob’s bytes');
  await client.generateIds(2);
  const [outcome] = await client.batch([calls.getFile(alices.id)]);
  assert.equal(outcome.status, 404, 'a batch after the switch is Bob’s too');

  const after = sent.slice(before);
  assert.ok(after.length >= 8);
  assert.deepEqual(
    after.filter((header) => header !== `Bearer ${BOB}`),
    [],
  );
});

test('a getter that caches is the app’s cache: a refused token is asked for again once after a 401', async () => {
  const tokens = ['revoked-or-expired', BOB];
  let asked = 0;
  const client = createStoreClient({ baseUrl: service.url, getAccessToken: () => tokens[Math.min(asked++, 1)]! });
  assert.equal((await client.about({ fields: 'user' })).user?.emailAddress, 'bob@example.com');
  assert.equal(asked, 2);
  await client.about({ fields: 'user' });
  assert.equal(asked, 3, 'the next call asks the getter again: the client keeps no token of its own');
});
