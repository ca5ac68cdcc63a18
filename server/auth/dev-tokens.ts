/** The development tokens: the configured ones and those issued at run time through `/__admin/tokens`. */
import { principalFor } from '../access.ts';
import type { TokenGrants } from '../token-grants.ts';
import { bearerToken, invalidToken, type Authenticator } from './authenticator.ts';

/** An {@link Authenticator} that looks each bearer token up in `tokens` (the default for `npm start`). */
export function devTokenAuthenticator(tokens: TokenGrants): Authenticator {
  return {
    authenticate(headers) {
      const token = bearerToken(headers);
      if (token === undefined) return Promise.resolve(undefined);
      const grant = token === null ? undefined : tokens.get(token);
      if (token === null || grant === undefined) return Promise.reject(invalidToken());
      return Promise.resolve(
        principalFor(grant.user, grant.client, {
          token,
          serviceAccount: grant.serviceAccount ?? false,
          ...(grant.displayName !== undefined ? { displayName: grant.displayName } : {}),
        }),
      );
    },
  };
}
