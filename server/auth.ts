/** Bearer-token authentication (spec §5, supplement §7). */
import { MESSAGES } from 'store-upload-kit/protocol';
import { principalFor, type Principal } from './access.ts';
import type { TokenGrants } from './token-grants.ts';
import { ApiError } from './errors.ts';

/**
 * Resolves the `Authorization` header: `undefined` when absent; a {@link Principal} for a bearer token valid now (issued, not revoked);
 * throws 401 `authError` for anything else.
 */
export function authenticate(headers: Readonly<Record<string, string>>, tokens: TokenGrants): Principal | undefined {
  const header = headers['authorization'];
  if (header === undefined || header.trim() === '') return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const grant = m ? tokens.get(m[1]) : undefined;
  if (!m || !grant) {
    throw new ApiError(401, 'authError', MESSAGES.invalidCredentials, {
      where: { location: 'Authorization', locationType: 'header' },
      headers: { 'WWW-Authenticate': 'Bearer realm="store", error="invalid_token"' },
    });
  }
  return principalFor(grant.user, grant.client, {
    token: m[1],
    serviceAccount: grant.serviceAccount ?? false,
    ...(grant.displayName !== undefined ? { displayName: grant.displayName } : {}),
  });
}

/** 401 `required` "Login Required." */
export function loginRequired(): ApiError {
  return new ApiError(401, 'required', MESSAGES.loginRequired, {
    where: { location: 'Authorization', locationType: 'header' },
    headers: { 'WWW-Authenticate': 'Bearer realm="store"' },
  });
}

/**
 * Who calls, for a service that does not check bearer tokens itself: an app that mounts the service in its own
 * server signs its users in its own way (`handler/`). Resolves `undefined` when the request is not signed in.
 * (The same seam as the pluggable authentication of issue 37; `request` names what the call is for.)
 */
export interface Authenticator {
  authenticate(
    headers: Readonly<Record<string, string>>,
    request: { readonly method: string; readonly path: string },
  ): Promise<Principal | undefined>;
}
