/**
 * Who may do what to a file: one rule set for files, permissions, uploads and push. A caller who cannot see a
 * file gets 404 as if it did not exist; one who can see but not change it gets 403.
 */
import { fileNotFound, insufficientPermissions } from './errors.ts';
import { permissionIdFor } from './store/ids.ts';

/** The caller behind a token. */
export interface Principal {
  readonly token: string;
  /** E-mail address, lower-case. */
  readonly email: string;
  /** The part after `@`, for `domain` grants. */
  readonly domain: string;
  readonly displayName: string;
  /**
   * The user's permission ID: from an identity provider's `sub` (stable while an address may change), else derived
   * from the address. Owner rows, `about` and the permissions of shares to a user the service has seen carry it.
   */
  readonly permissionId: string;
  /** The OAuth client of the token. */
  readonly client: string;
  readonly serviceAccount: boolean;
}

/** The one way a caller is built: from a token grant, or from a session's stored owner (no token). */
export function principalFor(
  user: string,
  client: string,
  options: { token?: string; serviceAccount?: boolean; displayName?: string; permissionId?: string } = {},
): Principal {
  const email = user.toLowerCase();
  const at = email.lastIndexOf('@');
  return {
    token: options.token ?? '',
    email,
    domain: at >= 0 ? email.slice(at + 1) : '',
    displayName: options.displayName ?? (at >= 0 ? user.slice(0, at) : user),
    permissionId: options.permissionId ?? permissionIdFor('user', email),
    client,
    serviceAccount: options.serviceAccount ?? false,
  };
}

/** Permission roles, strongest first. */
export type Role = 'owner' | 'writer' | 'commenter' | 'reader';

const ROLE_RANK: Readonly<Record<string, number>> = {
  owner: 4,
  organizer: 4,
  fileOrganizer: 3,
  writer: 3,
  commenter: 2,
  reader: 1,
};

/** The strongest of the granted roles (stored role names), or undefined when there is none. */
export function strongestRole(granted: readonly string[]): Role | undefined {
  let rank = 0;
  for (const role of granted) rank = Math.max(rank, ROLE_RANK[role] ?? 0);
  if (granted.length === 0) return undefined;
  return rank >= 4 ? 'owner' : rank === 3 ? 'writer' : rank === 2 ? 'commenter' : 'reader';
}

/** What a caller wants to do. */
export type Need = 'see' | 'write' | 'share' | 'delete';

/** True when `role` (undefined: no grant) allows `need`. Writers share; deleting for good is the owner's. */
export function allows(role: Role | undefined, need: Need): boolean {
  if (role === undefined) return false;
  if (need === 'see') return true;
  if (need === 'delete') return role === 'owner';
  return role === 'owner' || role === 'writer';
}

/** Throws the spec's answer when `role` does not allow `need` on `fileId`: 404 when unseen, else 403. */
export function requireAccess(fileId: string, role: Role | undefined, need: Need): void {
  if (role === undefined) throw fileNotFound(fileId);
  if (!allows(role, need)) throw insufficientPermissions();
}

/** What the checks below read: a file by id and the strongest role a caller holds on it. */
export interface FileLookup<R> {
  get(id: string): Promise<R | undefined>;
  roleOf(id: string, who: Principal): Promise<Role | undefined>;
}

/** The file if `who` may do `need` to it: 404 "File not found" when it is missing or unseen, 403 when not allowed. */
export async function fileFor<R>(files: FileLookup<R>, fileId: string, who: Principal, need: Need): Promise<R> {
  const row = await files.get(fileId);
  if (row === undefined) throw fileNotFound(fileId);
  requireAccess(fileId, await files.roleOf(fileId, who), need);
  return row;
}
