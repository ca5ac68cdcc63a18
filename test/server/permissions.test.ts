/** Permissions endpoint (spec §2.2, §4.7) against the real service: validation, who may share, visibility. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type ServiceHandle } from './helpers/service.ts';

const ALICE = 'dev-token-alice'; // alice@example.com
const BOB = 'dev-token-bob'; // bob@example.com
const CAROL = 'dev-token-carol'; // carol@other.example

let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

/** Alice uploads a small text file; returns its id. */
async function aliceFile(name: string, content = 'hello'): Promise<string> {
  const r = await svc.api('POST', `/upload/store/v3/files?uploadType=media&fields=id`, {
    token: ALICE,
    headers: { 'Content-Type': 'text/plain' },
    body: content,
  });
  assert.equal(r.status, 200, r.text);
  const id = r.json().id as string;
  const named = await svc.api('PATCH', `/store/v3/files/${id}?fields=id`, { token: ALICE, body: { name } });
  assert.equal(named.status, 200, named.text);
  return id;
}

function grant(fileId: string, token: string, body: unknown, query = 'fields=id') {
  return svc.api('POST', `/store/v3/files/${fileId}/permissions?${query}`, { token, body: body as object });
}

/** Whether `token` sees the file by get, download and list. */
async function sees(token: string, fileId: string, content = 'hello'): Promise<[number, number, boolean]> {
  const get = await svc.api('GET', `/store/v3/files/${fileId}?fields=id`, { token });
  const dl = await svc.api('GET', `/store/v3/files/${fileId}?alt=media`, { token });
  if (dl.status === 200) assert.equal(dl.text, content);
  const list = await svc.api('GET', `/store/v3/files?pageSize=1000&fields=files(id)`, { token });
  assert.equal(list.status, 200, list.text);
  const listed = (list.json().files as { id: string }[]).some((f) => f.id === fileId);
  return [get.status, dl.status, listed];
}

test('a user grant makes the file visible to the grantee (get, download, list); a reader cannot modify or share', async () => {
  const id = await aliceFile('for-bob.txt');
  assert.deepEqual(await sees(BOB, id), [404, 404, false]);

  const r = await grant(id, ALICE, { type: 'user', role: 'reader', emailAddress: 'Bob@Example.com' });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.headers['content-type'], 'application/json; charset=UTF-8');
  const body = r.json();
  assert.deepEqual(Object.keys(body), ['id']);
  assert.match(body.id, /^\d+$/);

  assert.deepEqual(await sees(BOB, id), [200, 200, true]);
  assert.deepEqual(await sees(CAROL, id), [404, 404, false]);

  const patch = await svc.api('PATCH', `/store/v3/files/${id}`, { token: BOB, body: { name: 'mine now' } });
  assert.equal(patch.status, 403);
  assert.equal(patch.json().error.errors[0].reason, 'insufficientFilePermissions');
  const reshare = await grant(id, BOB, { type: 'user', role: 'reader', emailAddress: 'carol@other.example' });
  assert.equal(reshare.status, 403);
  assert.equal(reshare.json().error.errors[0].reason, 'insufficientFilePermissions');

  const file = await svc.api('GET', `/store/v3/files/${id}?fields=permissions(id,type,role,emailAddress)`, {
    token: ALICE,
  });
  assert.deepEqual(file.json(), {
    permissions: [
      { id: file.json().permissions[0].id, type: 'user', role: 'owner', emailAddress: 'alice@example.com' },
      { id: body.id, type: 'user', role: 'reader', emailAddress: 'bob@example.com' },
    ],
  });
});

test('a domain grant makes the file visible to everyone in the domain; a writer can modify and share', async () => {
  const id = await aliceFile('for-example.com.txt');
  const r = await grant(
    id,
    ALICE,
    { type: 'domain', role: 'writer', domain: 'example.com' },
    'fields=id,type,role,domain&sendNotificationEmail=false',
  );
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.json(), { id: r.json().id, type: 'domain', role: 'writer', domain: 'example.com' });

  assert.deepEqual(await sees(BOB, id), [200, 200, true]);
  assert.deepEqual(await sees(CAROL, id), [404, 404, false]);

  const patch = await svc.api('PATCH', `/store/v3/files/${id}?fields=name`, {
    token: BOB,
    body: { name: 'renamed by bob' },
  });
  assert.equal(patch.status, 200, patch.text);
  assert.deepEqual(patch.json(), { name: 'renamed by bob' });

  const share = await grant(id, BOB, { type: 'user', role: 'reader', emailAddress: 'carol@other.example' });
  assert.equal(share.status, 200, share.text);
  assert.deepEqual(await sees(CAROL, id), [200, 200, true]);

  // Bob, a writer, takes Carol's access away again.
  const del = await svc.api('DELETE', `/store/v3/files/${id}/permissions/${share.json().id}`, { token: BOB });
  assert.equal(del.status, 204);
  assert.equal(del.body.length, 0);
  assert.deepEqual(await sees(CAROL, id), [404, 404, false]);
});

test('list and get permissions; delete rules', async () => {
  const id = await aliceFile('list.txt');
  const g = await grant(id, ALICE, { type: 'user', role: 'writer', emailAddress: 'bob@example.com' });
  const bobPerm = g.json().id as string;

  const list = await svc.api('GET', `/store/v3/files/${id}/permissions`, { token: BOB });
  assert.equal(list.status, 200, list.text);
  const all = list.json();
  assert.equal(all.kind, 'store#permissionList');
  assert.deepEqual(
    all.permissions.map((p: { role: string; emailAddress: string; kind: string }) => [p.kind, p.role, p.emailAddress]),
    [
      ['store#permission', 'owner', 'alice@example.com'],
      ['store#permission', 'writer', 'bob@example.com'],
    ],
  );
  const narrowed = await svc.api('GET', `/store/v3/files/${id}/permissions?fields=permissions(role)`, { token: ALICE });
  assert.deepEqual(narrowed.json(), { permissions: [{ role: 'owner' }, { role: 'writer' }] });

  const one = await svc.api('GET', `/store/v3/files/${id}/permissions/${bobPerm}?fields=id,role`, { token: ALICE });
  assert.deepEqual(one.json(), { id: bobPerm, role: 'writer' });

  const missing = await svc.api('DELETE', `/store/v3/files/${id}/permissions/nope`, { token: ALICE });
  assert.equal(missing.status, 404);
  assert.equal(missing.json().error.message, 'Permission not found: nope.');

  const ownerId = all.permissions[0].id as string;
  const owner = await svc.api('DELETE', `/store/v3/files/${id}/permissions/${ownerId}`, { token: BOB });
  assert.equal(owner.status, 403);
  assert.equal(owner.json().error.message, "The owner's permission cannot be removed.");

  const self = await grant(id, BOB, { type: 'user', role: 'reader', emailAddress: 'alice@example.com' });
  assert.equal(self.status, 403);
  assert.equal(
    self.json().error.message,
    "alice@example.com owns this file; the owner's permission cannot be changed.",
  );

  const invisible = await svc.api('GET', `/store/v3/files/${id}/permissions`, { token: CAROL });
  assert.equal(invisible.status, 404);
  assert.equal(invisible.json().error.message, `File not found: ${id}.`);

  const anon = await svc.api('GET', `/store/v3/files/${id}/permissions`, { token: null });
  assert.equal(anon.status, 401);
});

test('bad permission bodies get 400 naming the missing or wrong field', async () => {
  const id = await aliceFile('bad.txt');
  const cases: [unknown, string, string, string][] = [
    [
      { role: 'reader', emailAddress: 'bob@example.com' },
      'required',
      'permission.type',
      'The permission type field is required.',
    ],
    [
      { type: 'user', emailAddress: 'bob@example.com' },
      'required',
      'permission.role',
      'The permission role field is required.',
    ],
    [
      { type: 'user', role: 'reader' },
      'required',
      'permission.emailAddress',
      'The permission emailAddress field is required for a user permission.',
    ],
    [
      { type: 'domain', role: 'reader' },
      'required',
      'permission.domain',
      'The permission domain field is required for a domain permission.',
    ],
    [
      { type: 'anyone', role: 'reader' },
      'invalidParameter',
      'permission.type',
      'Invalid permission type: "anyone" is not supported; expected one of: user, domain.',
    ],
    [
      { type: 'user', role: 'owner', emailAddress: 'bob@example.com' },
      'invalidParameter',
      'permission.role',
      'Invalid permission role: "owner" is not supported; expected one of: reader, writer.',
    ],
    [
      { type: 'user', role: 'reader', emailAddress: 'bob' },
      'invalidParameter',
      'permission.emailAddress',
      'Invalid permission emailAddress: "bob" is not an e-mail address.',
    ],
    [
      { type: 'domain', role: 'reader', domain: 'not a domain' },
      'invalidParameter',
      'permission.domain',
      'Invalid permission domain: "not a domain" is not a domain name.',
    ],
    [
      { type: 'user', role: 'reader', emailAddress: 42 },
      'invalidParameter',
      'permission.emailAddress',
      'Invalid permission emailAddress: 42 is not a string.',
    ],
    [
      ['user'],
      'required',
      'permission',
      'A permission resource is required in the request body (a JSON object with type and role).',
    ],
  ];
  for (const [body, reason, location, message] of cases) {
    const r = await grant(id, ALICE, body);
    assert.equal(r.status, 400, JSON.stringify(body));
    assert.deepEqual(r.json(), {
      error: { code: 400, message, errors: [{ message, domain: 'global', reason, location, locationType: 'body' }] },
    });
  }
  const empty = await svc.api('POST', `/store/v3/files/${id}/permissions`, { token: ALICE });
  assert.equal(empty.status, 400);
  assert.equal(empty.json().error.errors[0].location, 'permission');

  const badJson = await svc.api('POST', `/store/v3/files/${id}/permissions`, {
    token: ALICE,
    headers: { 'Content-Type': 'application/json' },
    body: '{"type":',
  });
  assert.equal(badJson.status, 400);
  assert.equal(badJson.json().error.errors[0].reason, 'parseError');

  const flag = await grant(
    id,
    ALICE,
    { type: 'user', role: 'reader', emailAddress: 'bob@example.com' },
    'sendNotificationEmail=maybe',
  );
  assert.equal(flag.status, 400);
  assert.deepEqual(flag.json().error.errors[0], {
    message: 'Invalid value for sendNotificationEmail: "maybe" (expected true or false).',
    domain: 'global',
    reason: 'invalidParameter',
    location: 'sendNotificationEmail',
    locationType: 'parameter',
  });

  const badFields = await grant(
    id,
    ALICE,
    { type: 'user', role: 'reader', emailAddress: 'bob@example.com' },
    'fields=nope',
  );
  assert.equal(badFields.status, 400);
  assert.equal(badFields.json().error.errors[0].location, 'fields');

  // None of the rejected calls changed anything.
  const perms = await svc.api('GET', `/store/v3/files/${id}/permissions?fields=permissions(role)`, { token: ALICE });
  assert.deepEqual(perms.json(), { permissions: [{ role: 'owner' }] });
});
