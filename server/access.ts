/**
 * Who may do what to a file: one rule set for files, permissions, uploads and push. A caller who cannot see a
 * file gets 404 as if it did not exist; one who can see but not change it gets 403.
 */
import { fileNotFound, insufficientPermissions } from './errors.ts';

/** Permission roles, strongest first. */
export type Role = 'owner' | 'writer' | 'commenter' | 'reader';

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
