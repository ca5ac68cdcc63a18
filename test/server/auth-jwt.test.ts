/**
 * The service in `auth.mode: "jwt"` against a real OpenID provider (`oidc-provider`, helpers/oidc-provider.ts) over
 * HTTPS with a development CA the service trusts through `trustCa`: the mapped user, each refusal's 401 and
 * `WWW-Authenticate`, the provider down → 503, key rotation and the JWKS refetch limit.
 */
import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { exportSPKI, SignJWT, type JWTPayload } from 'jose';
import { startService, type ServiceHandle } from './helpers/service.ts';
import {
  ACCOUNTS,
  AUDIENCE,
  OTHER_AUDIENCE,
  startProvider,
  type SigningKey,
  type TestProvider,
} from './helpers/oidc-provider.ts';
import { expectRefused, signWith, unpublishedKey } from './helpers/bearer-checks.ts';

const ALICE = 'sub-alice-7f3a';

function jwtConfig(provider: TestProvider, extra: object = {}): object {
  return { trustCa: [provider.caFile], auth: { mode: 'jwt', issuer: provider.issuer, audience: AUDIENCE, ...extra } };
}

describe('auth.mode jwt: access tokens of a real OpenID provider', () => {
  let provider: TestProvider;
  let svc: ServiceHandle;
  let key: SigningKey;
  const now = () => Math.floor(Date.now() / 1000);
  const claims = (over: JWTPayload = {}): JWTPayload => ({
    iss: provider.issuer,
    aud: AUDIENCE,
    sub: ALICE,
    client_id: 'store-app',
    email: 'alice@example.com',
    iat: now(),
    exp: now() + 600,
    ...over,
  });

  before(async () => {
    provider = await startProvider();
    key = provider.keys[0];
    svc = await startService({ config: jwtConfig(provider) });
  });
  after(async () => {
    await svc.stop();
    await provider.close();
  });

  test("a provider's token lists files, and the caller is the token's person: e-mail, name, client", async () => {
    const token = await provider.userToken(ALICE);
    assert.equal((await svc.api('GET', '/store/v3/files', { token })).status, 200);
    const about = (await svc.api('GET', '/store/v3/about?fields=user', { token })).json();
    assert.deepEqual(
      { email: about.user.emailAddress, name: about.user.displayName },
      { email: 'alice@example.com', name: ACCOUNTS[ALICE].name },
    );
    const created = await svc.api('POST', '/store/v3/files', { token, body: { name: 'from-the-provider.txt' } });
    assert.equal(created.status, 200, created.text);
    const id = created.json<{ id: string }>().id;
    const back = (await svc.api('GET', `/store/v3/files/${id}?fields=owners,permissions`, { token })).json();
    assert.equal(back.owners[0].emailAddress, 'alice@example.com');
    assert.equal(back.owners[0].me, true);
    assert.deepEqual(
      back.permissions.map((p: { emailAddress: string; role: string }) => [p.emailAddress, p.role]),
      [['alice@example.com', 'owner']],
    );
    // Another person of the same provider does not see it.
    const bob = await provider.userToken('sub-bob-91c2');
    assert.equal((await svc.api('GET', `/store/v3/files/${id}`, { token: bob })).status, 404);
  });

  test('a client-credentials token acts as a service account of its client', async () => {
    const token = await provider.clientCredentialsToken();
    const about = (await svc.api('GET', '/store/v3/about?fields=user', { token })).json();
    assert.equal(about.user.emailAddress, 'backup-robot@clients.127.0.0.1');
    const created = await svc.api('POST', '/store/v3/files', { token, body: { name: 'nightly.tar' } });
    assert.equal(created.status, 200, created.text);
    assert.equal(created.json().owners[0].emailAddress, 'backup-robot@clients.127.0.0.1');
  });

  test('no token on a protected route: 401 Bearer realm="store" without an error code', async () => {
    const r = await svc.api('GET', '/store/v3/files', { token: null });
    assert.equal(r.status, 401);
    assert.equal(r.headers['www-authenticate'], 'Bearer realm="store"');
  });

  test('a token for another audience is refused', async () => {
    await expectRefused(svc, await provider.userToken(ALICE, OTHER_AUDIENCE), /not for this service/);
  });

  test('a token of another issuer, signed with the right key, is refused', async () => {
    await expectRefused(svc, await signWith(key, claims({ iss: 'https://evil.test' })), /not from the issuer/);
  });

  test('an expired token is refused (past the 30 s skew)', async () => {
    await expectRefused(svc, await signWith(key, claims({ iat: now() - 700, exp: now() - 60 })), /expired/);
  });

  test('a token within the skew is still accepted', async () => {
    const token = await signWith(key, claims({ exp: now() - 5 }));
    assert.equal((await svc.api('GET', '/store/v3/files', { token })).status, 200);
  });

  test('a token not valid yet (nbf) is refused', async () => {
    await expectRefused(svc, await signWith(key, claims({ nbf: now() + 120 })), /not valid yet/);
  });

  test('a token signed by a key the issuer does not publish is refused', async () => {
    await expectRefused(svc, await signWith(await unpublishedKey(), claims()), /key the issuer does not publish/);
  });

  test('alg none is refused', async () => {
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    await expectRefused(svc, `${b64({ alg: 'none', typ: 'at+jwt' })}.${b64(claims())}.`, /algorithm is not allowed/);
  });

  test("an HS256 token whose secret is the issuer's public key is refused", async () => {
    const publicPem = await exportSPKI(createPublicKey(createPrivateKey({ key: key.privateJwk, format: 'jwk' })));
    const forged = await new SignJWT(claims())
      .setProtectedHeader({ alg: 'HS256', kid: key.kid })
      .sign(new TextEncoder().encode(publicPem));
    await expectRefused(svc, forged, /algorithm is not allowed/);
  });

  test('a token without exp is refused', async () => {
    const { exp: _drop, ...rest } = claims();
    await expectRefused(svc, await signWith(key, rest), /exp claim is missing/);
  });

  test("a person's token without an e-mail, or with one the provider has not verified, is refused", async () => {
    const { email: _drop, ...noEmail } = claims();
    await expectRefused(svc, await signWith(key, noEmail), /no email claim/);
    await expectRefused(svc, await signWith(key, claims({ email_verified: false })), /not verified/);
  });

  test('a flood of unknown kids fetches the JWKS again at most once a minute', async () => {
    assert.equal((await svc.api('GET', '/store/v3/files', { token: await provider.userToken(ALICE) })).status, 200);
    const before = provider.jwksRequests;
    const forged = await Promise.all(
      Array.from({ length: 20 }, async () => signWith({ ...(await unpublishedKey()), kid: randomUUID() }, claims())),
    );
    const answers = await Promise.all(forged.map((token) => svc.api('GET', '/store/v3/files', { token })));
    assert.deepEqual(new Set(answers.map((r) => r.status)), new Set([401]));
    assert.ok(
      provider.jwksRequests - before <= 1,
      `${provider.jwksRequests - before} JWKS fetches for 20 unknown kids`,
    );
  });
});

describe('auth.mode jwt: key rotation and an unreachable provider', () => {
  let provider: TestProvider;
  const services: ServiceHandle[] = [];
  before(async () => {
    provider = await startProvider();
  });
  after(async () => {
    for (const s of services) await s.stop();
    await provider.close();
  });

  test('after the provider rotates its keys, a token with the new kid is accepted after one JWKS refetch', async () => {
    const svc = await startService({ config: jwtConfig(provider, { jwksCooldownSeconds: 2 }) });
    services.push(svc);
    assert.equal((await svc.api('GET', '/store/v3/files', { token: await provider.userToken(ALICE) })).status, 200);
    const fetchesBefore = provider.jwksRequests;
    const newKey = await provider.rotateKeys();
    const token = await provider.userToken(ALICE);
    assert.ok(token.length > 0 && newKey.kid !== provider.keys[1].kid);
    // Within the cooldown the new kid may be refused; once it is over, one refetch finds it.
    const deadline = Date.now() + 20_000;
    let status = 0;
    while (Date.now() < deadline) {
      status = (await svc.api('GET', '/store/v3/files', { token })).status;
      if (status === 200) break;
      // eslint-disable-next-line no-restricted-syntax -- time-wait: the JWKS cooldown (2 s) must pass before a refetch
      await new Promise((r) => setTimeout(r, 250));
    }
    assert.equal(status, 200);
    assert.equal(provider.jwksRequests - fetchesBefore, 1);
    // A token signed with the old key, still published, is still good.
    const old = await signWith(provider.keys[1], {
      iss: provider.issuer,
      aud: AUDIENCE,
      sub: ALICE,
      email: 'alice@example.com',
      exp: Math.floor(Date.now() / 1000) + 60,
    });
    assert.equal((await svc.api('GET', '/store/v3/files', { token: old })).status, 200);
  });

  test('a configured claim marks a service account whose sub is a user id (as Keycloak issues them)', async () => {
    const svc = await startService({
      config: jwtConfig(provider, {
        claims: { serviceAccountClaim: 'svc_account', serviceAccountDomain: 'robots.example' },
      }),
    });
    services.push(svc);
    const base = {
      iss: provider.issuer,
      aud: AUDIENCE,
      sub: 'f3a1c2d4-service-account-user',
      azp: 'nightly-export',
      exp: Math.floor(Date.now() / 1000) + 60,
    };
    const token = await signWith(provider.keys[0], { ...base, svc_account: true });
    const about = (await svc.api('GET', '/store/v3/about?fields=user', { token })).json();
    assert.equal(about.user.emailAddress, 'nightly-export@robots.example');
    await expectRefused(svc, await signWith(provider.keys[0], base), /no client-credentials token/);
  });

  test('a provider that cannot be reached is a 503 with a readable message, not a 401', async () => {
    const svc = await startService({
      config: {
        trustCa: [provider.caFile],
        auth: { mode: 'jwt', issuer: 'https://127.0.0.1:9', audience: AUDIENCE, timeoutMs: 2000 },
      },
    });
    services.push(svc);
    const r = await svc.api('GET', '/store/v3/files', { token: await provider.userToken(ALICE) });
    assert.equal(r.status, 503, r.text);
    assert.match(
      r.json().error.message,
      /identity provider could not be asked \(discovery of https:\/\/127\.0\.0\.1:9\)/,
    );
    assert.equal(r.headers['www-authenticate'], undefined);
  });

  test('a provider whose certificate is not trusted is a 503 naming the TLS error', async () => {
    const svc = await startService({ config: { auth: { mode: 'jwt', issuer: provider.issuer, audience: AUDIENCE } } });
    services.push(svc);
    const r = await svc.api('GET', '/store/v3/files', { token: await provider.userToken(ALICE) });
    assert.equal(r.status, 503, r.text);
    assert.match(r.json().error.message, /certificate/);
  });
});
