/**
 * The service in `auth.mode: "introspection"` against a real OpenID provider (`oidc-provider`,
 * helpers/oidc-provider.ts): opaque tokens asked about at its RFC 7662 endpoint with the service's own client
 * credentials, the short cache (one call for many requests, never long enough to keep a revoked token), service
 * accounts, and the provider refusing the service's credentials → 503.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startService, type ServiceHandle } from './helpers/service.ts';
import {
  AUDIENCE,
  OPAQUE_AUDIENCE,
  OTHER_OPAQUE_AUDIENCE,
  SERVICE_CLIENT,
  startProvider,
  type TestProvider,
} from './helpers/oidc-provider.ts';
import { expectRefused } from './helpers/bearer-checks.ts';

const ALICE = 'sub-alice-7f3a';
const CACHE_SECONDS = 3;

function introspectionConfig(provider: TestProvider, extra: object = {}): object {
  return {
    trustCa: [provider.caFile],
    auth: {
      mode: 'introspection',
      issuer: provider.issuer,
      introspectionEndpoint: `${provider.issuer}/token/introspection`,
      clientId: SERVICE_CLIENT.id,
      clientSecret: SERVICE_CLIENT.secret,
      audience: OPAQUE_AUDIENCE,
      cacheSeconds: CACHE_SECONDS,
      ...extra,
    },
  };
}

describe('auth.mode introspection: opaque tokens of a real OpenID provider', () => {
  let provider: TestProvider;
  let svc: ServiceHandle;
  before(async () => {
    provider = await startProvider();
    svc = await startService({ config: introspectionConfig(provider) });
  });
  after(async () => {
    await svc.stop();
    await provider.close();
  });

  test("an opaque token lists files, and the caller is the token's person", async () => {
    const token = await provider.userToken(ALICE, OPAQUE_AUDIENCE);
    assert.ok(!token.includes('.'), 'the provider issued an opaque token, not a JWT');
    assert.equal((await svc.api('GET', '/store/v3/files', { token })).status, 200);
    const created = await svc.api('POST', '/store/v3/files', { token, body: { name: 'opaque.txt' } });
    assert.equal(created.status, 200, created.text);
    const back = await svc.api('GET', `/store/v3/files/${created.json().id}?fields=owners,permissions`, { token });
    assert.equal(back.json().owners[0].emailAddress, 'alice@example.com');
    assert.equal(back.json().permissions[0].emailAddress, 'alice@example.com');
  });

  test('many requests with one token ask the provider once while the answer is kept', async () => {
    const token = await provider.userToken(ALICE, OPAQUE_AUDIENCE);
    const before = provider.introspections;
    const answers = await Promise.all(Array.from({ length: 8 }, () => svc.api('GET', '/store/v3/files', { token })));
    assert.deepEqual(new Set(answers.map((r) => r.status)), new Set([200]));
    assert.equal(provider.introspections - before, 1);
  });

  test('a token revoked at the provider is refused once the cache time has passed, not later', async () => {
    const token = await provider.userToken(ALICE, OPAQUE_AUDIENCE);
    assert.equal((await svc.api('GET', '/store/v3/files', { token })).status, 200);
    await provider.revoke(token);
    const revokedAt = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - revokedAt < (CACHE_SECONDS + 10) * 1000) {
      // eslint-disable-next-line no-restricted-syntax -- time-wait: the kept answer (3 s) must run out; polled
      await new Promise((r) => setTimeout(r, 200));
      status = (await svc.api('GET', '/store/v3/files', { token })).status;
    }
    const took = Date.now() - revokedAt;
    assert.equal(status, 401);
    // The cache's bound plus the time to poll and answer on a busy machine.
    assert.ok(took <= (CACHE_SECONDS + 3) * 1000, `refused ${took} ms after the revocation`);
    await expectRefused(svc, token, /not active/);
  });

  test('an opaque token for another audience is refused', async () => {
    await expectRefused(svc, await provider.userToken(ALICE, OTHER_OPAQUE_AUDIENCE), /not for this service/);
  });

  test('a JWT the provider cannot introspect is refused, not a 503', async () => {
    await expectRefused(svc, await provider.userToken(ALICE, AUDIENCE), /cannot introspect this kind of token/);
  });

  test('a made-up token is refused', async () => {
    await expectRefused(svc, 'not-a-token-the-provider-issued', /not active/);
  });

  test('a client-credentials token acts as a service account of its client', async () => {
    const token = await provider.clientCredentialsToken(OPAQUE_AUDIENCE);
    const about = (await svc.api('GET', '/store/v3/about?fields=user', { token })).json();
    assert.equal(about.user.emailAddress, 'backup-robot@clients.127.0.0.1');
  });
});

describe('auth.mode introspection: the provider refusing the service', () => {
  let provider: TestProvider;
  let svc: ServiceHandle;
  before(async () => {
    provider = await startProvider();
    svc = await startService({ config: introspectionConfig(provider, { clientSecret: 'wrong-secret' }) });
  });
  after(async () => {
    await svc.stop();
    await provider.close();
  });

  test("the service's own credentials refused is a 503 that says so, not a 401", async () => {
    const r = await svc.api('GET', '/store/v3/files', { token: await provider.userToken(ALICE, OPAQUE_AUDIENCE) });
    assert.equal(r.status, 503, r.text);
    assert.match(
      r.json().error.message,
      /could not be asked \(introspection at https:.*\): it answered 401 invalid_client/,
    );
    assert.ok(!r.text.includes('wrong-secret'), 'the answer must not carry the client secret');
  });
});
