/**
 * A real OpenID provider for tests: `oidc-provider` (a certified OpenID Connect implementation) in the test process,
 * over HTTPS on a free loopback port with a certificate of the project's development CA (`ca.pem` for the service's
 * `trustCa`). It issues JWT access tokens for {@link AUDIENCE} (and {@link OTHER_AUDIENCE}), opaque ones for
 * {@link OPAQUE_AUDIENCE}, answers introspection (client {@link SERVICE_CLIENT}) and revocation, and grants client
 * credentials to {@link ROBOT_CLIENT}. It counts the JWKS and introspection requests it answers.
 *
 * A person's token is minted with the provider's own models (a grant and an access token, as its authorization code
 * flow would end), so no browser sign-in is needed; everything else goes over HTTP.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import Provider, { type ResourceServer } from 'oidc-provider';
import { createDevCa } from '../../../server/http/dev-ca.ts';
import { providerFetch, type ProviderFetch } from '../../../server/auth/provider-fetch.ts';

/** This service's resource indicator: JWT access tokens. */
export const AUDIENCE = 'https://store.test/api';
/** Another API's resource indicator: JWTs the service must refuse. */
export const OTHER_AUDIENCE = 'https://other.test/api';
/** The service's resource indicator when it introspects: opaque access tokens. */
export const OPAQUE_AUDIENCE = 'https://store.test/opaque';
/** Another API's resource indicator with opaque tokens: introspected tokens the service must refuse. */
export const OTHER_OPAQUE_AUDIENCE = 'https://other.test/opaque';
/** The app signing users in. */
export const APP_CLIENT = { id: 'store-app', secret: 'app-secret-0123456789' };
/** The service itself, as a client of the provider (introspection). */
export const SERVICE_CLIENT = { id: 'store-service', secret: 'service-secret-0123456789' };
/** A machine client (client credentials: a service account). */
export const ROBOT_CLIENT = { id: 'backup-robot', secret: 'robot-secret-0123456789' };

/** The provider's people: `sub` → claims. */
export const ACCOUNTS: Readonly<Record<string, { email: string; name: string }>> = {
  'sub-alice-7f3a': { email: 'Alice@Example.com', name: 'Alice Liddell' },
  'sub-bob-91c2': { email: 'bob@example.com', name: 'Bob Builder' },
};

/** A signing key of the provider: its private JWK (with `kid`). */
export interface SigningKey {
  readonly kid: string;
  readonly privateJwk: JWK;
}

/** A running provider. */
export interface TestProvider {
  readonly issuer: string;
  /** PEM file of the CA that signed the provider's certificate. */
  readonly caFile: string;
  /** JWKS (`/jwks`) requests answered so far. */
  readonly jwksRequests: number;
  /** Introspection requests answered so far. */
  readonly introspections: number;
  /** Keys published, the signing one first. */
  readonly keys: readonly SigningKey[];
  /** A person's access token for `resource` (JWT or opaque, as the resource server says). */
  userToken(sub: string, resource?: string): Promise<string>;
  /** A client-credentials token of {@link ROBOT_CLIENT} for `resource`, over the token endpoint. */
  clientCredentialsToken(resource?: string): Promise<string>;
  /** Revokes a token at the revocation endpoint (RFC 7009), as the app that holds it would. */
  revoke(token: string): Promise<void>;
  /** Rotates keys: a new signing key first, the old ones still published. */
  rotateKeys(): Promise<SigningKey>;
  /** A fetch trusting the provider's CA. */
  readonly fetch: ProviderFetch;
  close(): Promise<void>;
}

/** Options of {@link startProvider}. */
export interface ProviderOptions {
  /** Access-token lifetime in seconds (default 600). */
  readonly accessTokenTtl?: number;
}

async function newKey(): Promise<SigningKey> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = randomUUID();
  return { kid, privateJwk: { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' } };
}

function resourceServer(resource: string, ttl: number): ResourceServer {
  const base = { scope: 'store', accessTokenTTL: ttl };
  if (resource === AUDIENCE || resource === OTHER_AUDIENCE) {
    return { ...base, audience: resource, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'RS256' } } };
  }
  if (resource === OPAQUE_AUDIENCE || resource === OTHER_OPAQUE_AUDIENCE)
    return { ...base, audience: resource, accessTokenFormat: 'opaque' };
  throw new Error(`unknown resource ${resource}`);
}

function configuration(keys: readonly SigningKey[], ttl: number): ConstructorParameters<typeof Provider>[1] {
  const client = (id: string, secret: string, grants: string[]) => ({
    client_id: id,
    client_secret: secret,
    grant_types: grants,
    response_types: [],
    redirect_uris: [],
    token_endpoint_auth_method: 'client_secret_basic' as const,
  });
  return {
    clients: [
      client(APP_CLIENT.id, APP_CLIENT.secret, ['authorization_code']),
      client(SERVICE_CLIENT.id, SERVICE_CLIENT.secret, []),
      client(ROBOT_CLIENT.id, ROBOT_CLIENT.secret, ['client_credentials']),
    ],
    jwks: { keys: keys.map((k) => k.privateJwk) },
    cookies: { keys: ['test-cookie-key-0123456789abcdef'] },
    scopes: ['openid', 'store'],
    ttl: { AccessToken: ttl, ClientCredentials: ttl, Grant: 3600 },
    findAccount: (_ctx, sub) =>
      ACCOUNTS[sub] === undefined ? undefined : { accountId: sub, claims: () => ({ sub, ...ACCOUNTS[sub] }) },
    // Puts the person's e-mail and name into their JWTs and introspection answers, as a provider's mapper does.
    extraTokenClaims: (_ctx, token) => {
      const sub = 'accountId' in token ? token.accountId : undefined;
      return sub === undefined ? undefined : ACCOUNTS[sub];
    },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      revocation: {
        enabled: true,
        allowedPolicy: (_ctx, client, token) => Promise.resolve(token.clientId === client.clientId),
      },
      introspection: {
        enabled: true,
        allowedPolicy: (ctx) => Promise.resolve(ctx.oidc.client?.clientId === SERVICE_CLIENT.id),
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => AUDIENCE,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => resourceServer(resource, ttl),
      },
    },
  };
}

/** Starts a provider on `127.0.0.1:<free port>` over HTTPS. */
export async function startProvider(options: ProviderOptions = {}): Promise<TestProvider> {
  const ttl = options.accessTokenTtl ?? 600;
  const dir = mkdtempSync(join(tmpdir(), 'oidc-provider-'));
  const ca = await createDevCa('oidc test CA');
  const leaf = await ca.issueLeaf(['127.0.0.1', 'localhost']);
  const caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, ca.cert);
  let keys: SigningKey[] = [await newKey()];
  let provider: Provider | undefined;
  let jwksRequests = 0;
  let introspections = 0;
  const server: Server = createServer({ cert: leaf.cert, key: leaf.key }, (req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path === '/jwks') jwksRequests++;
    if (path === '/token/introspection') introspections++;
    if (provider === undefined) res.writeHead(503).end();
    // Koa's handler answers every error itself; a rejection here would be a bug of the provider, seen by the test.
    else void provider.callback()(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const current = () => {
    if (provider === undefined) throw new Error('the provider is closed');
    return provider;
  };
  provider = new Provider(issuer, configuration(keys, ttl));
  const fetch = providerFetch([ca.cert], 10_000);
  const basic = (c: { id: string; secret: string }) =>
    `Basic ${Buffer.from(`${encodeURIComponent(c.id)}:${encodeURIComponent(c.secret)}`).toString('base64')}`;
  const post = async (path: string, client: { id: string; secret: string }, form: Record<string, string>) => {
    const res = await fetch(`${issuer}${path}`, {
      method: 'POST',
      headers: { authorization: basic(client), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form),
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${text}`);
    return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
  };
  return {
    issuer,
    caFile,
    get jwksRequests() {
      return jwksRequests;
    },
    get introspections() {
      return introspections;
    },
    get keys() {
      return keys;
    },
    fetch,
    async userToken(sub, resource = AUDIENCE) {
      const p = current();
      const client = await p.Client.find(APP_CLIENT.id);
      if (client === undefined) throw new Error('no app client');
      const grant = new p.Grant({ accountId: sub, clientId: APP_CLIENT.id });
      grant.addResourceScope(resource, 'store');
      const grantId = await grant.save();
      const token = new p.AccessToken({
        client,
        accountId: sub,
        grantId,
        gty: 'authorization_code',
        scope: 'store',
        resourceServer: new p.ResourceServer(resource, resourceServer(resource, ttl)),
      });
      return token.save();
    },
    async clientCredentialsToken(resource = AUDIENCE) {
      const body = await post('/token', ROBOT_CLIENT, { grant_type: 'client_credentials', resource, scope: 'store' });
      return body.access_token as string;
    },
    async revoke(token) {
      await post('/token/revocation', APP_CLIENT, { token });
    },
    async rotateKeys() {
      const key = await newKey();
      keys = [key, ...keys];
      // A provider's configuration is fixed at construction: a rotation is a new instance with the new key set,
      // as a provider restarted with new keys; tokens and grants live in the shared in-memory adapter.
      provider = new Provider(issuer, configuration(keys, ttl));
      return key;
    },
    async close() {
      provider = undefined;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
