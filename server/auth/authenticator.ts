/**
 * The authentication seam: every request the service answers asks one {@link Authenticator}, whichever way it
 * knows its callers (the development tokens, a provider's JWTs, token introspection, or an app's own sign-in).
 */
import { MESSAGES } from 'store-upload-kit/protocol';
import type { Principal } from '../access.ts';
import { ApiError } from '../errors.ts';

/** Request headers by lower-case name, as `ApiRequest.headers` holds them. */
export type RequestHeaders = Readonly<Record<string, string>>;

/**
 * Who is calling. `authenticate` resolves `undefined` when the request carries no credentials (dispatch answers a
 * protected route with {@link loginRequired}), a {@link Principal} for valid ones, and rejects with the answer for
 * anything else: {@link invalidToken} (401) for refused credentials, {@link providerUnavailable} (503) when the
 * identity provider cannot be asked.
 */
export interface Authenticator {
  /** `request` names what the call is for (an app's own sign-in may look at it; the token modes do not). */
  authenticate(
    headers: RequestHeaders,
    request?: { readonly method: string; readonly path: string },
  ): Promise<Principal | undefined>;
}

/** The bearer token of `Authorization`; `undefined` when there is no such header; `null` when it is no bearer token. */
export function bearerToken(headers: RequestHeaders): string | undefined | null {
  const header = headers['authorization'];
  if (header === undefined || header.trim() === '') return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : null;
}

/** Quotes a value for a `WWW-Authenticate` auth-param (RFC 9110 quoted-string; RFC 6750 allows no `"` or `\`). */
function quoted(value: string): string {
  return `"${value.replace(/[^\x20-\x7e]|["\\]/g, '')}"`;
}

/**
 * 401 `authError` for a refused token, with `WWW-Authenticate: Bearer realm="store", error="invalid_token"` (RFC 6750
 * §3.1) and, when given, an `error_description` saying why (expired, another audience …) — never the token.
 */
export function invalidToken(description?: string): ApiError {
  const params = ['realm="store"', 'error="invalid_token"'];
  if (description !== undefined) params.push(`error_description=${quoted(description)}`);
  return new ApiError(
    401,
    'authError',
    description === undefined ? MESSAGES.invalidCredentials : `${MESSAGES.invalidCredentials}: ${description}`,
    {
      where: { location: 'Authorization', locationType: 'header' },
      headers: { 'WWW-Authenticate': `Bearer ${params.join(', ')}` },
    },
  );
}

/** 401 `required` "Login Required." with `WWW-Authenticate: Bearer realm="store"` (RFC 6750 §3: no error code). */
export function loginRequired(): ApiError {
  return new ApiError(401, 'required', MESSAGES.loginRequired, {
    where: { location: 'Authorization', locationType: 'header' },
    headers: { 'WWW-Authenticate': 'Bearer realm="store"' },
  });
}

/**
 * 503 `backendError` when the identity provider cannot be asked (down, a bad answer, its certificate untrusted):
 * not the caller's fault, so no 401 that would sign them out; clients retry 503 with backoff.
 */
export function providerUnavailable(what: string, cause: unknown): ApiError {
  const why = cause instanceof Error ? cause.message : String(cause);
  return new ApiError(503, 'backendError', `The identity provider could not be asked (${what}): ${why}. Try again.`, {
    headers: { 'Retry-After': '5' },
  });
}
