/** The shapes of the file data layer: rows as stored, their SQL forms, and what a create or a change needs. */

/** A file as stored. */
export interface FileRow {
  readonly num: number;
  readonly id: string;
  readonly name: string;
  readonly mimeType: string;
  readonly description: string | undefined;
  readonly originalFilename: string | undefined;
  readonly parents: readonly string[];
  /** Byte size of media content; undefined for folders and native kinds. */
  readonly size: number | undefined;
  readonly md5: string | undefined;
  /** Content key of the stored content (media bytes or converted native content): `ContentStore`'s object. */
  readonly contentKey: string | undefined;
  readonly createdTime: number;
  readonly modifiedTime: number;
  readonly trashed: boolean;
  readonly version: number;
  /** Owner e-mail. */
  readonly owner: string;
}

/** A permission as stored. */
export interface PermissionRow {
  readonly fileId: string;
  readonly id: string;
  readonly type: 'user' | 'group' | 'domain' | 'anyone';
  readonly role: string;
  readonly email: string | undefined;
  readonly domain: string | undefined;
}

/** Content to attach to a file. */
export interface ContentRef {
  /** Content key of the stored object; undefined for empty content (nothing stored). */
  readonly contentKey: string | undefined;
  /** Undefined for native (converted) content: the resource then has no `size`/`md5Checksum`. */
  readonly size: number | undefined;
  readonly md5: string | undefined;
}

/** What a create needs (validated by the caller). */
export interface NewFile {
  readonly id?: string;
  readonly name: string;
  readonly mimeType: string;
  readonly description?: string;
  readonly originalFilename?: string;
  readonly parents: readonly string[];
  readonly trashed?: boolean;
  readonly content?: ContentRef;
}

/** A metadata and/or content change (validated by the caller). */
export interface FilePatch {
  readonly name?: string;
  readonly mimeType?: string;
  readonly description?: string;
  readonly originalFilename?: string;
  readonly trashed?: boolean;
  readonly addParents?: readonly string[];
  readonly removeParents?: readonly string[];
  readonly content?: ContentRef;
}

/** One page of a listing. */
export interface FilePage {
  readonly files: FileRow[];
  /** `num` to continue after, if there are more. */
  readonly nextAfter: number | undefined;
}

/** The JSON file resource (supplement §2). */
export type FileResource = Record<string, unknown>;

/** A `files` row as SQLite returns it. */
export interface DbFileRow {
  num: number;
  id: string;
  name: string;
  mime_type: string;
  description: string | null;
  original_filename: string | null;
  parents: string;
  size: number | null;
  md5: string | null;
  content_key: string | null;
  created_time: number;
  modified_time: number;
  trashed: number;
  version: number;
  owner: string;
}

/** A `permissions` row as SQLite returns it. */
export interface DbPermRow {
  file_id: string;
  id: string;
  type: PermissionRow['type'];
  role: string;
  email: string | null;
  domain: string | null;
}

/** A file row from its SQL shape. */
export function toFile(r: DbFileRow): FileRow {
  return {
    num: r.num,
    id: r.id,
    name: r.name,
    mimeType: r.mime_type,
    description: r.description ?? undefined,
    originalFilename: r.original_filename ?? undefined,
    parents: JSON.parse(r.parents) as string[],
    size: r.size ?? undefined,
    md5: r.md5 ?? undefined,
    contentKey: r.content_key ?? undefined,
    createdTime: r.created_time,
    modifiedTime: r.modified_time,
    trashed: r.trashed === 1,
    version: r.version,
    owner: r.owner,
  };
}

/** A permission row from its SQL shape. */
export function toPerm(r: DbPermRow): PermissionRow {
  return {
    fileId: r.file_id,
    id: r.id,
    type: r.type,
    role: r.role,
    email: r.email ?? undefined,
    domain: r.domain ?? undefined,
  };
}

/** SQL condition: the file `f` is visible to the e-mail and domain bound to its two `?` parameters. */
export const VISIBLE = `EXISTS (SELECT 1 FROM permissions p WHERE p.file_id = f.id AND (
  (p.type IN ('user', 'group') AND p.email = ?) OR (p.type = 'domain' AND p.domain = ?) OR p.type = 'anyone'))`;
