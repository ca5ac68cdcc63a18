/**
 * Worker side: who an upload belongs to. A principal is the account whose token chose a task — `account:<id>` when
 * the app named it (`UploaderOptions.account`), else `user:<permissionId>` as the service itself answers for the
 * token (`GET about?fields=user`, asked once per token and kept) — so an app that says nothing is safe too.
 */
import { about } from '../../client/calls.ts';
import { connect } from '../../client/connection.ts';
import { StoreError } from '../../client/store-error.ts';

/** The account a task belongs to, as the engines of a worker are keyed by it. */
export type Principal = string;

/** The principal of an account the app named. */
export function accountPrincipal(account: string): Principal {
  return `account:${account}`;
}

/** The principal of a user as the service names it. */
export function userPrincipal(user: string): Principal {
  return `user:${user}`;
}

/**
 * The principal of a token whose user the service could not name (unreachable, 5xx): the token itself, hashed (a
 * stored session records it, and a bearer token is not kept in IndexedDB). Its uploads are sent with that token only.
 */
export async function tokenPrincipal(token: string): Promise<Principal> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
  return `token:${[...new Uint8Array(digest).slice(0, 16)].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** Tokens whose user is known, newest last: a worker that lives for days sees a token per refresh. */
const known = new Map<string, Promise<string>>();
const MAX_KNOWN = 64;

/**
 * The service's ID of the user `token` acts for (`permissionId`), asked once per token and base URL. Rejects with
 * the `StoreError` of the answer: 401 when the token is not (or no longer) valid; status 0 or a 5xx when the service
 * could not say (not kept: the next call asks again).
 */
export function userOfToken(baseUrl: string, token: string): Promise<string> {
  const key = `${baseUrl}\n${token}`;
  let user = known.get(key);
  if (user) return user;
  const { send } = connect({ baseUrl, getAccessToken: () => token });
  user = send(about({ fields: 'user(permissionId,emailAddress)' })).then((answer) => {
    const id = answer.user?.permissionId ?? answer.user?.emailAddress;
    if (!id) throw new StoreError(500, 'the about resource names no user for this token');
    return id;
  });
  const asked = user;
  known.set(key, asked);
  asked.catch(() => known.get(key) === asked && known.delete(key));
  if (known.size > MAX_KNOWN) known.delete(known.keys().next().value!);
  return asked;
}

/** Forgets what a token was (a sign-out): the same string given again is asked about again. */
export function forgetToken(baseUrl: string, token: string): void {
  known.delete(`${baseUrl}\n${token}`);
}
