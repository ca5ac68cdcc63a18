/** Validation of the file metadata a client sends (JSON body, multipart first part, resumable start). */
import { isMediaType } from 'store-upload-kit/protocol';
import { badRequest } from '../errors.ts';

/** Writable metadata of a create or update. */
export interface IncomingMetadata {
  readonly id?: string;
  readonly name?: string;
  readonly mimeType?: string;
  readonly description?: string;
  readonly originalFilename?: string;
  readonly parents?: readonly string[];
  readonly trashed?: boolean;
}

const STRING_FIELDS = ['id', 'name', 'mimeType', 'description', 'originalFilename'] as const;
/** Read-only fields clients often echo back: accepted and ignored so a round-trip of a resource works. */
const IGNORED = new Set([
  'kind',
  'size',
  'md5Checksum',
  'createdTime',
  'modifiedTime',
  'version',
  'permissions',
  'owners',
]);
const KNOWN = new Set<string>([...STRING_FIELDS, 'parents', 'trashed']);

/**
 * Checks the shape of metadata (`undefined` = none). `update` rejects `parents` (use addParents/removeParents)
 * like the modelled API. Unknown fields → 400 naming them, so typos are not silently dropped.
 */
export function parseMetadata(raw: unknown, mode: 'create' | 'update'): IncomingMetadata {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw badRequest('The file metadata must be a JSON object.');
  const o = raw as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (IGNORED.has(k)) continue;
    if (!KNOWN.has(k)) throw badRequest(`Unknown or read-only file field "${k}" in the metadata.`);
    if ((STRING_FIELDS as readonly string[]).includes(k)) {
      if (typeof v !== 'string') throw badRequest(`The file field "${k}" must be a string.`);
      // U+0000 is no character of a name, and PostgreSQL's text cannot hold it: refused on every backend alike.
      if (v.includes('\u0000')) throw badRequest(`The file field "${k}" must not contain the NUL character (U+0000).`);
      out[k] = v;
    }
  }
  if (o.trashed !== undefined) {
    if (typeof o.trashed !== 'boolean') throw badRequest('The file field "trashed" must be true or false.');
    out.trashed = o.trashed;
  }
  if (o.parents !== undefined) {
    if (mode === 'update') {
      throw badRequest(
        'The parents field is not directly writable in update requests. Use the addParents and removeParents parameters instead.',
      );
    }
    if (!Array.isArray(o.parents) || !o.parents.every((p) => typeof p === 'string' && p !== '')) {
      throw badRequest('The file field "parents" must be an array of file IDs.');
    }
    out.parents = [...new Set(o.parents as string[])];
  }
  if (typeof out.name === 'string' && out.name.length > 32767)
    throw badRequest('The file name is longer than 32767 characters.');
  if (typeof out.mimeType === 'string' && !isMediaType(out.mimeType)) {
    throw badRequest(`The mimeType "${out.mimeType}" is not a valid MIME type.`);
  }
  return out;
}

/** Splits a comma-separated ID list parameter (`addParents`, `removeParents`). */
export function idList(value: string | null): string[] {
  if (value === null) return [];
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}
