/**
 * The app's own sign-in as the service's caller: the app's `authenticate` reads its session cookie or its JWT and
 * names the user; the service sees a {@link Principal} built the one way every caller is (`principalFor`).
 */
import { principalFor } from '../access.ts';
import { permissionIdFor } from '../store/ids.ts';
import type { Authenticator } from '../auth/authenticator.ts';

/** The user an app's sign-in names. */
export interface AppUser {
  /** The user's e-mail address: their identity in the service (owner, permissions, quota). */
  readonly email: string;
  /** Display name; default: the part of the e-mail before `@`. */
  readonly name?: string;
  /** True for a machine caller (the service's service-account rules apply). */
  readonly serviceAccount?: boolean;
  /** The app (OAuth client) the call is made through; default `"app"`. */
  readonly client?: string;
  /**
   * The user's stable ID in the app's own sign-in (its users table's key, a provider's `sub`): their permission ID in
   * the service. Default: derived from the e-mail address.
   */
  readonly id?: string;
}

/** What the app's `authenticate` is shown of a call. */
export interface AppRequest {
  /** The request's headers (its cookies among them). In a batch, an inner call's, with the outer call's inherited. */
  readonly headers: Headers;
  readonly method: string;
  /** The path the app received the call on, its base path included (no query). */
  readonly url: string;
}

/** The app's sign-in: the user of a call, or undefined when it is not signed in (answered 401). */
export type AppAuthenticate = (request: AppRequest) => Promise<AppUser | undefined> | AppUser | undefined;

/** An {@link Authenticator} that asks the app, below `basePath`. */
export function appAuthenticator(authenticate: AppAuthenticate, basePath: string): Authenticator {
  return {
    async authenticate(headers, request) {
      const user = await authenticate({
        headers: new Headers(headers),
        method: request?.method ?? 'GET',
        url: basePath + (request?.path ?? '/'),
      });
      if (user === undefined) return undefined;
      if (typeof user.email !== 'string' || !user.email.includes('@'))
        throw new TypeError(
          `authenticate must resolve a user with an e-mail address, or undefined; got email ${JSON.stringify(user.email)}`,
        );
      return principalFor(user.email, user.client ?? 'app', {
        serviceAccount: user.serviceAccount ?? false,
        ...(user.name !== undefined ? { displayName: user.name } : {}),
        ...(user.id !== undefined ? { permissionId: permissionIdFor('subject', `app ${user.id}`) } : {}),
      });
    },
  };
}
