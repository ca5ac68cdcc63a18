/** The JSON forms of files and permissions (supplement §2). */
import { KIND } from 'store-upload-kit/protocol';
import type { Principal } from '../access.ts';
import { rfc3339 } from '../clock.ts';
import type { FileResource, FileRow, PermissionRow } from './file-rows.ts';
import { permissionIdFor } from './ids.ts';

/** The JSON resource of a file with its permissions (owner first), as `viewer` sees it. */
export function fileResource(row: FileRow, perms: readonly PermissionRow[], viewer?: Principal): FileResource {
  const ownerPerm = perms.find((p) => p.role === 'owner');
  const out: FileResource = {
    kind: KIND.file,
    id: row.id,
    name: row.name,
    mimeType: row.mimeType,
  };
  if (row.description !== undefined) out.description = row.description;
  out.parents = [...row.parents];
  if (row.size !== undefined) out.size = String(row.size);
  if (row.md5 !== undefined) out.md5Checksum = row.md5;
  out.createdTime = rfc3339(row.createdTime);
  out.modifiedTime = rfc3339(row.modifiedTime);
  out.trashed = row.trashed;
  out.version = String(row.version);
  if (row.originalFilename !== undefined) out.originalFilename = row.originalFilename;
  out.permissions = perms.map((p) => permissionResource(p));
  out.owners = [
    {
      kind: KIND.user,
      displayName: displayNameOf(row.owner),
      emailAddress: row.owner,
      permissionId: ownerPerm?.id ?? permissionIdFor('user', row.owner),
      me: viewer !== undefined && viewer.email === row.owner,
    },
  ];
  return out;
}

/** The JSON permission resource. */
export function permissionResource(p: PermissionRow): Record<string, unknown> {
  const out: Record<string, unknown> = { kind: KIND.permission, id: p.id, type: p.type, role: p.role };
  if (p.email !== undefined) {
    out.emailAddress = p.email;
    out.displayName = displayNameOf(p.email);
  }
  if (p.domain !== undefined) out.domain = p.domain;
  return out;
}

function displayNameOf(email: string): string {
  const at = email.indexOf('@');
  return at > 0 ? email.slice(0, at) : email;
}
