/** Builds the service's {@link Authenticator} from the config's `auth` key. */
import type { ServiceConfig } from '../config.ts';
import type { TokenGrants } from '../token-grants.ts';
import type { Authenticator } from './authenticator.ts';
import { devTokenAuthenticator } from './dev-tokens.ts';
import { introspectionAuthenticator } from './introspection.ts';
import { jwtAuthenticator } from './jwt.ts';
import { providerFetch, readCaFiles } from './provider-fetch.ts';

export type { Authenticator, RequestHeaders } from './authenticator.ts';
export { bearerToken, invalidToken, loginRequired, providerUnavailable } from './authenticator.ts';

/**
 * The authenticator `config.auth` asks for: the dev tokens (`tokens`, changeable through `/__admin/tokens`), JWTs or
 * introspection. A provider's HTTPS is trusted with Node's roots, the config's `trustCa` and `auth.caFile`. Nothing
 * is fetched here: discovery and keys come with the first token, so a provider down at start is a 503, not a crash.
 */
export function createAuthenticator(config: ServiceConfig, tokens: TokenGrants, now: () => number): Authenticator {
  const auth = config.auth;
  if (auth.mode === 'dev') return devTokenAuthenticator(tokens);
  const ca = readCaFiles([...config.trustCa, ...(auth.caFile !== undefined ? [auth.caFile] : [])]);
  const fetch = providerFetch(ca, auth.timeoutMs);
  return auth.mode === 'jwt' ? jwtAuthenticator(auth, fetch, now) : introspectionAuthenticator(auth, fetch, now);
}
