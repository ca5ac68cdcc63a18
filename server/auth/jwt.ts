/**
 * JWT access tokens (RFC 9068) verified with jose against the issuer's JWKS: the signature by a published key, an
 * algorithm from the allow-list, `iss`, `aud`, and `exp`/`nbf` with `clockToleranceSeconds` of skew. The JWKS is
 * cached; a token with an unknown `kid` fetches it again (key rotation), at most once per `jwksCooldownSeconds`.
 */
import { createRemoteJWKSet, customFetch, errors, jwtVerify } from 'jose';
import { ApiError } from '../errors.ts';
import { bearerToken, invalidToken, providerUnavailable, type Authenticator } from './authenticator.ts';
import { principalFromClaims } from './claims.ts';
import { discovery } from './discovery.ts';
import type { ProviderFetch } from './provider-fetch.ts';
import type { JwtSettings } from './settings.ts';

/** What a refused token is told in `error_description`; `undefined` for an error that is not the token's fault. */
function whyRefused(e: unknown, settings: JwtSettings): string | undefined {
  if (e instanceof errors.JWTExpired) return 'The access token expired.';
  if (e instanceof errors.JWTClaimValidationFailed) {
    if (e.claim === 'nbf') return 'The access token is not valid yet (nbf).';
    if (e.claim === 'iss') return `The access token is not from the issuer ${settings.issuer}.`;
    if (e.claim === 'aud')
      return `The access token is not for this service (audience ${settings.audience.join(', ')}).`;
    return `The access token's ${e.claim} claim is ${e.reason === 'missing' ? 'missing' : 'invalid'}.`;
  }
  if (e instanceof errors.JOSEAlgNotAllowed) {
    return `The access token's signing algorithm is not allowed (allowed: ${settings.algorithms.join(', ')}).`;
  }
  if (e instanceof errors.JWKSNoMatchingKey)
    return 'The access token is signed with a key the issuer does not publish.';
  if (e instanceof errors.JWKSMultipleMatchingKeys) return "Several of the issuer's keys match the access token.";
  if (e instanceof errors.JWSSignatureVerificationFailed) return "The access token's signature does not verify.";
  if (e instanceof errors.JWSInvalid || e instanceof errors.JWTInvalid)
    return 'The access token is no well-formed JWT.';
  if (e instanceof errors.JOSENotSupported)
    return 'The access token uses an algorithm or header this service does not support.';
  return undefined;
}

/** An {@link Authenticator} for JWT access tokens; `now` is the service's clock (ms). */
export function jwtAuthenticator(settings: JwtSettings, fetch: ProviderFetch, now: () => number): Authenticator {
  const discover = discovery(settings.issuer, fetch, settings.allowHttpLoopback);
  let keys: ReturnType<typeof createRemoteJWKSet> | undefined;
  const keySet = async () => {
    if (keys) return keys;
    let uri = settings.jwksUri;
    if (uri === undefined) {
      uri = (await discover()).jwks_uri;
      if (uri === undefined) throw new Error(`the discovery document of ${settings.issuer} names no jwks_uri`);
    }
    keys = createRemoteJWKSet(new URL(uri), {
      cooldownDuration: settings.jwksCooldownSeconds * 1000,
      timeoutDuration: settings.timeoutMs,
      [customFetch]: fetch,
    });
    return keys;
  };
  return {
    async authenticate(headers) {
      const token = bearerToken(headers);
      if (token === undefined) return undefined;
      if (token === null) throw invalidToken('The Authorization header holds no bearer token.');
      let jwks: Awaited<ReturnType<typeof keySet>>;
      try {
        jwks = await keySet();
      } catch (e) {
        throw providerUnavailable(`discovery of ${settings.issuer}`, e);
      }
      try {
        const { payload } = await jwtVerify(token, jwks, {
          issuer: settings.issuer,
          audience: [...settings.audience],
          algorithms: [...settings.algorithms],
          clockTolerance: settings.clockToleranceSeconds,
          currentDate: new Date(now()),
          requiredClaims: ['exp'],
        });
        return principalFromClaims(payload, settings.claims, token, settings.issuer);
      } catch (e) {
        const why = whyRefused(e, settings);
        if (why !== undefined) throw invalidToken(why);
        if (e instanceof ApiError) throw e;
        throw providerUnavailable(`the keys of ${settings.issuer}`, e);
      }
    },
  };
}
