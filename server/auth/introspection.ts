/**
 * Opaque access tokens asked about at the provider's RFC 7662 introspection endpoint (oauth4webapi), the service
 * authenticating as its own client (`client_secret_basic`). Answers are cached briefly (`answer-cache.ts`).
 */
import * as oauth from 'oauth4webapi';
import type { Principal } from '../access.ts';
import { ApiError } from '../errors.ts';
import { AnswerCache } from './answer-cache.ts';
import { bearerToken, invalidToken, providerUnavailable, type Authenticator } from './authenticator.ts';
import { principalFromClaims } from './claims.ts';
import { requestOptions } from './discovery.ts';
import type { ProviderFetch } from './provider-fetch.ts';
import type { IntrospectionSettings } from './settings.ts';

/** Why an active token is still refused, or undefined when it is good. */
function whyRefused(
  answer: oauth.IntrospectionResponse,
  settings: IntrospectionSettings,
  nowS: number,
): string | undefined {
  if (!answer.active) return 'The access token is not active (revoked, expired or unknown).';
  if (answer.exp !== undefined && answer.exp <= nowS) return 'The access token expired.';
  if (answer.nbf !== undefined && answer.nbf > nowS) return 'The access token is not valid yet (nbf).';
  if (settings.issuer !== undefined && answer.iss !== undefined && answer.iss !== settings.issuer) {
    return `The access token is not from the issuer ${settings.issuer}.`;
  }
  if (settings.audience !== undefined) {
    const aud = answer.aud === undefined ? [] : Array.isArray(answer.aud) ? answer.aud : [answer.aud];
    if (!aud.some((a) => settings.audience?.includes(a))) {
      return `The access token is not for this service (audience ${settings.audience.join(', ')}).`;
    }
  }
  return undefined;
}

/** An OAuth error answer said as its status and error code (a challenge's, or the body's); other failures as they are. */
function oauthAnswer(e: unknown): unknown {
  if (e instanceof oauth.ResponseBodyError) return new Error(`it answered ${e.status} ${e.error}`);
  if (e instanceof oauth.WWWAuthenticateChallengeError) {
    const challenge = e.cause[0];
    return new Error(`it answered ${e.status} ${challenge?.parameters.error ?? challenge?.scheme ?? ''}`.trim());
  }
  return e;
}

/** An {@link Authenticator} for opaque tokens; `now` is the service's clock (ms). */
export function introspectionAuthenticator(
  settings: IntrospectionSettings,
  fetch: ProviderFetch,
  now: () => number,
): Authenticator {
  const as: oauth.AuthorizationServer = {
    issuer: settings.issuer ?? new URL(settings.introspectionEndpoint).origin,
    introspection_endpoint: settings.introspectionEndpoint,
  };
  const client: oauth.Client = { client_id: settings.clientId };
  const clientAuth = oauth.ClientSecretBasic(settings.clientSecret);
  const cache = new AnswerCache<Principal | ApiError>(now);
  const maxMs = settings.cacheSeconds * 1000;

  const introspect = async (token: string): Promise<{ value: Principal | ApiError; untilMs: number }> => {
    let answer: oauth.IntrospectionResponse;
    try {
      const response = await oauth.introspectionRequest(as, client, clientAuth, token, {
        ...requestOptions(fetch, settings.allowHttpLoopback),
      });
      answer = await oauth.processIntrospectionResponse(as, client, response);
    } catch (e) {
      // A token the provider cannot introspect (a JWT at oidc-provider) is the caller's; every other OAuth error
      // answer (invalid_client: the service's own credentials refused) and any failure to ask is no fault of theirs.
      if (e instanceof oauth.ResponseBodyError && e.error === 'unsupported_token_type') {
        return { value: invalidToken('The provider cannot introspect this kind of token.'), untilMs: now() + maxMs };
      }
      throw providerUnavailable(`introspection at ${settings.introspectionEndpoint}`, oauthAnswer(e));
    }
    const nowMs = now();
    const why = whyRefused(answer, settings, Math.floor(nowMs / 1000));
    let value: Principal | ApiError;
    try {
      value =
        why === undefined ? principalFromClaims(answer, settings.claims, token, settings.issuer) : invalidToken(why);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      value = e;
    }
    const untilMs = Math.min(nowMs + maxMs, answer.exp !== undefined ? answer.exp * 1000 : Infinity);
    return { value, untilMs };
  };

  return {
    async authenticate(headers) {
      const token = bearerToken(headers);
      if (token === undefined) return undefined;
      if (token === null) throw invalidToken('The Authorization header holds no bearer token.');
      const value = await cache.get(token, () => introspect(token));
      if (value instanceof ApiError) throw value;
      return value;
    },
  };
}
