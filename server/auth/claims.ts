/**
 * A provider's claims → the service's user. A person is their e-mail address (sharing and ownership are by address,
 * as in the modelled API), named by `name`, with `sub` as their permission ID (hashed with the issuer into the
 * decimal form the modelled API's IDs have: two providers' subjects never meet); a client-credentials token — no e-mail, and no `sub` of a person — is a
 * service account of its OAuth client, `<client>@<serviceAccountDomain>`.
 */
import { principalFor, type Principal } from '../access.ts';
import { permissionIdFor } from '../store/ids.ts';
import { invalidToken } from './authenticator.ts';
import type { ClaimSettings } from './settings.ts';

/** Claims as a verified JWT or an introspection answer holds them. */
export type Claims = Readonly<Record<string, unknown>>;

function stringClaim(claims: Claims, name: string): string | undefined {
  const v = claims[name];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** The part of an address before `@` may not hold these (RFC 5322 atext, loosely): a client id is made to fit. */
function localPart(client: string): string {
  return client.replace(/[^A-Za-z0-9._+-]/g, '-');
}

/** The service's user for a token's verified `claims`; throws 401 when they name no user and no client. */
export function principalFromClaims(
  claims: Claims,
  settings: ClaimSettings,
  token: string,
  issuer: string | undefined,
): Principal {
  const client = settings.client.map((c) => stringClaim(claims, c)).find((c) => c !== undefined) ?? '';
  const email = stringClaim(claims, settings.email);
  const name = stringClaim(claims, settings.name);
  if (email !== undefined) {
    if (!/^[^\s@]+@[^\s@]+$/.test(email))
      throw invalidToken(`The token's ${settings.email} claim is no e-mail address.`);
    // Files are shared by address: an address the provider says it has not verified could be anyone's.
    if (claims.email_verified === false) throw invalidToken("The token's e-mail address is not verified.");
    const sub = stringClaim(claims, 'sub');
    return principalFor(email, client, {
      token,
      ...(name !== undefined ? { displayName: name } : {}),
      ...(sub !== undefined ? { permissionId: permissionIdFor('subject', `${issuer ?? ''} ${sub}`) } : {}),
    });
  }
  const sub = stringClaim(claims, 'sub');
  const flag = settings.serviceAccountClaim === undefined ? undefined : claims[settings.serviceAccountClaim];
  const marked = flag !== undefined && flag !== false;
  if (client !== '' && (sub === undefined || sub === client || marked)) {
    const domain =
      settings.serviceAccountDomain ?? `clients.${issuer === undefined ? 'invalid' : new URL(issuer).hostname}`;
    return principalFor(`${localPart(client)}@${domain}`, client, {
      token,
      serviceAccount: true,
      displayName: name ?? client,
    });
  }
  throw invalidToken(
    client === ''
      ? `The token names no user (no ${settings.email} claim) and no client (${settings.client.join(', ')}).`
      : `The token carries no ${settings.email} claim for its user and is no client-credentials token.`,
  );
}
