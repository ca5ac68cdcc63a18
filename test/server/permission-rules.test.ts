/**
 * Checks of permission create (spec §2.2, §4.7; supplement §7) against the real service: the rules
 * `permissions.test.ts` leaves open — `sendNotificationEmail=true`, re-granting, auth and missing files, sloppy
 * bodies and content types, domain grants across domains, and that every rejected call changes nothing.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startService, type ApiResult, type ServiceHandle } from './helpers/service.ts';

const ALICE = 'dev-token-alice'; // alice@example.com
const BOB = 'dev-token-bob'; // bob@example.com
const CAROL = 'dev-token-carol'; // carol@other.example
const MALLORY = 'dev-token-mallory'; // mallory@example.com, another OAuth client

let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

async function aliceFile(name: string): Promise<string> {
  const r = await svc.api('POST', '/store/v3/files?fields=id', {
    token: ALICE,
    body: { name, mimeType: 'text/plain' },
  });
  assert.equal(r.status, 200, r.text);
  return r.json().id as string;
}

function grant(fileId: string, body: unknown, query = '?fields=id', token = ALICE): Promise<ApiResult> {
  return svc.api('POST', `/store/v3/files/${fileId}/permissions${query}`, { token, body: body as object });
}

/** Raw body with a chosen Content-Type. */
function grantRaw(fileId: string, body: string, contentType: string | undefined): Promise<ApiResult> {
  return svc.api('POST', `/store/v3/files/${fileId}/permissions`, {
    headers: contentType ? { 'Content-Type': contentType } : {},
    body,
  });
}

async function roles(fileId: string): Promise<unknown> {
  const r = await svc.api('GET', `/store/v3/files/${fileId}?fields=permissions(type,role,emailAddress,domain)`, {
    token: ALICE,
  });
  assert.equal(r.status, 200, r.text);
  return r.json().permissions;
}

async function lists(token: string, fileId: string): Promise<boolean> {
  const r = await svc.api('GET', '/store/v3/files?pageSize=1000&fields=files(id)', { token });
  assert.equal(r.status, 200, r.text);
  return (r.json().files as { id: string }[]).some((f) => f.id === fileId);
}

function assertError(
  r: ApiResult,
  status: number,
  reason: string,
  message: string,
  location?: string,
  locationType?: string,
): void {
  assert.equal(r.status, status, r.text);
  assert.equal(r.headers['content-type'], 'application/json; charset=UTF-8');
  const item = { message, domain: 'global', reason, ...(location ? { location, locationType } : {}) };
  assert.deepEqual(r.json(), { error: { code: status, message, errors: [item] } });
}

test('sendNotificationEmail=true is accepted; fields=id answers exactly {id}; without fields the whole permission', async () => {
  const id = await aliceFile('notify.txt');
  const r = await grant(
    id,
    { type: 'user', role: 'reader', emailAddress: 'bob@example.com' },
    '?fields=id&sendNotificationEmail=true',
  );
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(Object.keys(r.json()), ['id']);
  assert.equal(typeof r.json().id, 'string');
  const full = await grant(id, { type: 'domain', role: 'reader', domain: 'Other.Example' }, '');
  assert.equal(full.status, 200, full.text);
  assert.deepEqual(full.json(), {
    kind: 'store#permission',
    id: full.json().id,
    type: 'domain',
    role: 'reader',
    domain: 'other.example',
  });
});

test('granting the same user again changes the role in place: same id, one entry', async () => {
  const id = await aliceFile('regrant.txt');
  const first = await grant(id, { type: 'user', role: 'reader', emailAddress: 'bob@example.com' });
  const second = await grant(id, { type: 'user', role: 'writer', emailAddress: 'BOB@example.com' }, '?fields=id,role');
  assert.equal(second.status, 200, second.text);
  assert.deepEqual(second.json(), { id: first.json().id, role: 'writer' });
  assert.deepEqual(await roles(id), [
    { type: 'user', role: 'owner', emailAddress: 'alice@example.com' },
    { type: 'user', role: 'writer', emailAddress: 'bob@example.com' },
  ]);
});

test('a domain grant reaches every account in that domain and no other; the grantee lists the file', async () => {
  const id = await aliceFile('for-other-domain.txt');
  assert.equal(await lists(CAROL, id), false);
  const r = await grant(id, { type: 'domain', role: 'reader', domain: 'other.example' });
  assert.equal(r.status, 200, r.text);
  assert.equal(await lists(CAROL, id), true);
  assert.equal(await lists(BOB, id), false);
  // A reader may read but not share further.
  const reshare = await grant(
    id,
    { type: 'user', role: 'reader', emailAddress: 'bob@example.com' },
    '?fields=id',
    CAROL,
  );
  assertError(
    reshare,
    403,
    'insufficientFilePermissions',
    'The user does not have sufficient permissions for this file.',
  );

  const home = await aliceFile('for-example-com.txt');
  await grant(home, { type: 'domain', role: 'reader', domain: 'example.com' });
  assert.equal(await lists(MALLORY, home), true, 'mallory@example.com is in example.com whatever her OAuth client');
  assert.equal(await lists(CAROL, home), false);
});

test('auth and targets: no token 401 required, unknown token 401 authError, missing or invisible file 404', async () => {
  const id = await aliceFile('auth.txt');
  const body = { type: 'user', role: 'reader', emailAddress: 'bob@example.com' };
  const anon = await svc.api('POST', `/store/v3/files/${id}/permissions`, { token: null, body });
  assertError(anon, 401, 'required', 'Login Required.', 'Authorization', 'header');
  const bad = await svc.api('POST', `/store/v3/files/${id}/permissions`, { token: 'nope', body });
  assertError(bad, 401, 'authError', 'Invalid Credentials', 'Authorization', 'header');
  assertError(
    await grant('no-such-file', body),
    404,
    'notFound',
    'File not found: no-such-file.',
    'fileId',
    'parameter',
  );
  assertError(
    await grant(id, body, '?fields=id', BOB),
    404,
    'notFound',
    `File not found: ${id}.`,
    'fileId',
    'parameter',
  );
  const wrong = await svc.api('PUT', `/store/v3/files/${id}/permissions`, { body });
  assert.equal(wrong.status, 405);
  assert.equal(wrong.headers.allow, 'GET, POST');
  assert.deepEqual(await roles(id), [{ type: 'user', role: 'owner', emailAddress: 'alice@example.com' }]);
});

test('sloppy bodies: wrong or missing Content-Type, JSON that is not an object, case-varied enums — each a 400 naming what is wrong', async () => {
  const id = await aliceFile('sloppy.txt');
  const good = JSON.stringify({ type: 'user', role: 'reader', emailAddress: 'bob@example.com' });
  assertError(
    await grantRaw(id, good, 'text/plain'),
    400,
    'badRequest',
    'The request body must be JSON with Content-Type application/json; got "text/plain".',
    'Content-Type',
    'header',
  );
  assertError(
    await grantRaw(id, good, undefined),
    400,
    'badRequest',
    'The request body must be JSON with Content-Type application/json; got no Content-Type.',
    'Content-Type',
    'header',
  );
  const required = 'A permission resource is required in the request body (a JSON object with type and role).';
  for (const body of ['null', '"user"', '42']) {
    assertError(await grantRaw(id, body, 'application/json'), 400, 'required', required, 'permission', 'body');
  }
  assertError(
    await grant(id, { type: 'USER', role: 'reader', emailAddress: 'bob@example.com' }),
    400,
    'invalidParameter',
    'Invalid permission type: "USER" is not supported; expected one of: user, domain.',
    'permission.type',
    'body',
  );
  assertError(
    await grant(id, { type: 'user', role: ['reader'], emailAddress: 'bob@example.com' }),
    400,
    'invalidParameter',
    'Invalid permission role: ["reader"] is not supported; expected one of: reader, writer.',
    'permission.role',
    'body',
  );
  assertError(
    await grant(id, { type: 'domain', role: 'reader', domain: 'example' }),
    400,
    'invalidParameter',
    'Invalid permission domain: "example" is not a domain name.',
    'permission.domain',
    'body',
  );
  const big = await grantRaw(
    id,
    JSON.stringify({ type: 'user', role: 'reader', emailAddress: 'bob@example.com', pad: 'x'.repeat(2 * 1024 * 1024) }),
    'application/json',
  );
  assert.equal(big.status, 413, big.text);
  assert.deepEqual(await roles(id), [{ type: 'user', role: 'owner', emailAddress: 'alice@example.com' }]);
});

test('query parameters: an empty sendNotificationEmail and a data/ selection are rejected before anything is stored', async () => {
  const id = await aliceFile('query.txt');
  const body = { type: 'user', role: 'reader', emailAddress: 'bob@example.com' };
  assertError(
    await grant(id, body, '?sendNotificationEmail='),
    400,
    'invalidParameter',
    'Invalid value for sendNotificationEmail: "" (expected true or false).',
    'sendNotificationEmail',
    'parameter',
  );
  const data = await grant(id, body, '?fields=data/id');
  assert.equal(data.status, 400);
  assert.equal(data.json().error.errors[0].location, 'fields');
  assert.equal(await lists(BOB, id), false);
  assert.deepEqual(await roles(id), [{ type: 'user', role: 'owner', emailAddress: 'alice@example.com' }]);
});

test('bad UTF-8 in a permission body is a 400, not an address with U+FFFD', async () => {
  const id = await aliceFile('utf8.txt');
  const bytes = Buffer.concat([
    Buffer.from('{"type":"domain","role":"reader","domain":"ex'),
    Buffer.from([0xc3, 0x28]),
    Buffer.from('.com"}'),
  ]);
  const r = await svc.api('POST', `/store/v3/files/${id}/permissions`, {
    headers: { 'Content-Type': 'application/json' },
    body: bytes,
  });
  assert.equal(r.status, 400);
  assert.equal(r.json().error.errors[0].reason, 'parseError');
});
