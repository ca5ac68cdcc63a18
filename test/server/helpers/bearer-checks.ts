/** Checks and forged tokens shared by the provider-token suites (auth-jwt, auth-introspection). */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWTPayload } from 'jose';
import type { ServiceHandle } from './service.ts';
import type { SigningKey } from './oidc-provider.ts';

/** Asserts a 401 `authError` whose `WWW-Authenticate` says `invalid_token` with a description matching `why`. */
export async function expectRefused(svc: ServiceHandle, token: string, why: RegExp): Promise<void> {
  const r = await svc.api('GET', '/store/v3/files', { token });
  assert.equal(r.status, 401, r.text);
  assert.equal(r.json().error.errors[0].reason, 'authError');
  const challenge = String(r.headers['www-authenticate']);
  assert.match(challenge, /^Bearer realm="store", error="invalid_token", error_description="[^"]+"$/);
  assert.match(challenge, why);
  assert.ok(!challenge.includes(token), 'the challenge must not echo the token');
}

/** A JWT signed with `key` (RS256, its `kid`), typed as an access token (RFC 9068). */
export async function signWith(key: SigningKey, claims: JWTPayload): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'at+jwt' })
    .sign(await importJWK(key.privateJwk, 'RS256'));
}

/** A key the provider never published. */
export async function unpublishedKey(): Promise<SigningKey> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = randomUUID();
  return { kid, privateJwk: { ...(await exportJWK(privateKey)), kid, alg: 'RS256' } };
}
