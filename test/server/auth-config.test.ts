/** The config file's `auth` key: the defaults, and each mistake refused with a message naming the key. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseConfig } from '../../server/config.ts';

const jwt = { mode: 'jwt', issuer: 'https://sso.example.com/realms/acme', audience: 'store-api' };

test('without auth the dev tokens are used; jwt gets its defaults', () => {
  assert.deepEqual(parseConfig({}).auth, { mode: 'dev' });
  const auth = parseConfig({ auth: jwt }).auth;
  assert.equal(auth.mode, 'jwt');
  if (auth.mode !== 'jwt') return;
  assert.deepEqual(
    [auth.audience, auth.algorithms, auth.clockToleranceSeconds, auth.jwksCooldownSeconds, auth.timeoutMs],
    [['store-api'], ['RS256', 'PS256', 'ES256', 'EdDSA'], 30, 60, 5000],
  );
  assert.deepEqual(auth.claims.client, ['azp', 'client_id']);
});

test('each bad auth setting stops the start with a message naming it', () => {
  const cases: [object, RegExp][] = [
    [{ mode: 'oidc' }, /"auth.mode" must be "dev", "jwt" or "introspection"/],
    [{ ...jwt, algorithms: ['RS256', 'HS256'] }, /"auth.algorithms" may not hold "HS256"/],
    [{ ...jwt, algorithms: ['none'] }, /may not hold "none"/],
    [{ ...jwt, audience: undefined }, /"auth.audience" is required in mode "jwt"/],
    [{ ...jwt, issuer: 'http://sso.example.com' }, /"auth.issuer" must be an https: URL/],
    [{ ...jwt, issuer: 'http://127.0.0.1:8080' }, /allowHttpLoopback/],
    [{ ...jwt, clockToleranceSeconds: -1 }, /"auth.clockToleranceSeconds" must be a number of seconds/],
    [{ ...jwt, clientSecret: 'x' }, /"auth.clientSecret" is not a key of mode "jwt"/],
    [{ ...jwt, claims: { mail: 'email' } }, /unknown key "auth.claims.mail"/],
    [
      { mode: 'introspection', introspectionEndpoint: 'https://idp.test/introspect', clientId: 'svc' },
      /"auth.clientSecret"/,
    ],
  ];
  for (const [auth, message] of cases) assert.throws(() => parseConfig({ auth }), message, JSON.stringify(auth));
});

test('http: on a loopback host is allowed only when asked for', () => {
  const auth = parseConfig({ auth: { ...jwt, issuer: 'http://127.0.0.1:8080', allowHttpLoopback: true } }).auth;
  assert.equal(auth.mode === 'jwt' && auth.issuer, 'http://127.0.0.1:8080');
});

test('every key the service reads is taken from the file; only the others are kept in extra', () => {
  const known = {
    tokens: {},
    auth: { mode: 'dev' },
    verifiedDomains: [],
    registeredDomains: [],
    trustCa: [],
    crl: 'revoked.pem',
    gzipAnyUserAgent: true,
    maxJsonBytes: 1,
    maxHeaderSize: 2,
    sessionTtlMs: 3,
    headersTimeoutMs: 4,
    bodyIdleTimeoutMs: 5,
    keepAliveTimeoutMs: 6,
    maxConnectionsPerClient: 7,
    lingerMs: 8,
    lingerBytes: 9,
    storageQuotaBytes: 10,
    database: 'postgres://u:p@127.0.0.1:5432/store',
    content: 's3://bucket/prefix',
  };
  const empty = parseConfig({});
  assert.deepEqual([empty.verifiedDomains, empty.registeredDomains, empty.trustCa, empty.extra], [[], [], [], {}]);
  for (const raw of [null, [], 'tokens']) assert.throws(() => parseConfig(raw), /the file must hold a JSON object/);
  const config = parseConfig({ ...known, theme: 'dark' });
  assert.deepEqual(config.extra, { theme: 'dark' });
  assert.deepEqual(
    [config.crl, config.gzipAnyUserAgent, config.storageQuotaBytes, config.database, config.content],
    [known.crl, true, 10, known.database, known.content],
  );
});
