/**
 * Small rules of the service called directly: who a caller is (`principalFor`: an address without a domain has
 * none), what roles allow (`strongestRole`, `allows`: no grant allows nothing), the run-time token set
 * (`TokenGrants`: a grant is accepted until revoked) and the route table (`Router`: a route registered twice is a
 * programming error named at start).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { allows, principalFor, strongestRole } from '../../server/access.ts';
import { Router } from '../../server/router.ts';
import { TokenGrants } from '../../server/token-grants.ts';

test('a caller’s domain is what follows the last @ of the address, and none without one', () => {
  assert.equal(principalFor('Alice@Example.COM', 'web').domain, 'example.com');
  const local = principalFor('service-bot', 'web');
  assert.equal(local.domain, '');
  assert.equal(local.displayName, 'service-bot');
});

test('principalFor, exported for apps, keeps the bearer token it is given and has none (empty) without one', () => {
  // A principal built from a session's stored owner has no token; one from a token grant keeps it.
  assert.equal(principalFor('alice@example.com', 'web').token, '');
  assert.equal(principalFor('alice@example.com', 'web', { token: 'tok-1' }).token, 'tok-1');
});

test('the strongest granted role names the caller’s role; a reader’s grants make a reader', () => {
  assert.equal(strongestRole([]), undefined);
  assert.equal(strongestRole(['reader']), 'reader');
  assert.equal(strongestRole(['reader', 'commenter']), 'commenter');
  assert.equal(strongestRole(['fileOrganizer', 'reader']), 'writer');
  assert.equal(strongestRole(['organizer']), 'owner');
});

test('no grant allows nothing, not even seeing', () => {
  for (const need of ['see', 'write', 'share', 'delete'] as const) assert.equal(allows(undefined, need), false, need);
  assert.equal(allows('reader', 'see'), true);
});

test('a token granted at run time is accepted until it is revoked', () => {
  const grants = new TokenGrants({ 'tok-config': { user: 'alice@example.com', client: 'web' } });
  assert.equal(grants.get('tok-new'), undefined);
  grants.grant('tok-new', { user: 'erin@example.com', client: 'web' });
  assert.deepEqual(grants.get('tok-new'), { user: 'erin@example.com', client: 'web' });
  assert.equal(grants.revoke('tok-new'), true);
  assert.equal(grants.get('tok-new'), undefined);
  assert.equal(grants.revoke('tok-new'), false, 'not a valid token any more');
  assert.equal(grants.revoke('tok-config'), true);
  assert.equal(grants.get('tok-config'), undefined);
});

test('a route registered twice is refused, naming its method and pattern', () => {
  const router = new Router();
  const handler = async () => ({ status: 204, headers: {} });
  router.add('GET', '/store/v3/files/:fileId', handler);
  router.add('PATCH', '/store/v3/files/:fileId', handler);
  assert.throws(() => router.add('GET', '/store/v3/files/:fileId', handler), {
    message: 'route GET /store/v3/files/:fileId is registered twice',
  });
});
