/** Opaque identifiers: file IDs, upload IDs, stable permission IDs. */
import { createHash, randomBytes } from 'node:crypto';

/** A new file ID (33 URL-safe characters, like the modelled API's). */
export function newFileId(): string {
  return '1' + randomBytes(24).toString('base64url');
}

/** A new resumable upload ID: long and random, since the session URI is a capability. */
export function newUploadId(): string {
  return 'AU' + randomBytes(32).toString('base64url');
}

/** The stable permission ID of a user or domain grantee (one permission per grantee and file). */
export function permissionIdFor(type: string, who: string): string {
  const digest = createHash('sha256').update(`${type}:${who.toLowerCase()}`).digest();
  // Decimal digits, as the modelled API's user permission IDs are.
  return digest.readBigUInt64BE(0).toString(10);
}
