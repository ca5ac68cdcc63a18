/**
 * The resources the service returns, as the kit reads them (supplement §2, §4, §5). Every field is optional except
 * where the service always sends it, because a `fields` selection narrows any response.
 */

/** A user as it appears in `owners` and `about.user`. */
export interface StoreUser {
  kind?: string;
  displayName?: string;
  emailAddress?: string;
  permissionId?: string;
  [key: string]: unknown;
}

/** A permission on a file (spec §2.2). */
export interface StorePermission {
  kind?: string;
  id?: string;
  type?: 'user' | 'domain' | 'anyone' | (string & {});
  role?: 'owner' | 'writer' | 'reader' | (string & {});
  emailAddress?: string;
  domain?: string;
  [key: string]: unknown;
}

/** The file resource (supplement §2). */
export interface StoreFile {
  kind?: string;
  id: string;
  name?: string;
  mimeType?: string;
  parents?: string[];
  size?: string;
  md5Checksum?: string;
  version?: string;
  createdTime?: string;
  modifiedTime?: string;
  trashed?: boolean;
  description?: string;
  originalFilename?: string;
  permissions?: StorePermission[];
  owners?: StoreUser[];
  [key: string]: unknown;
}

/** A page of `files.list`. */
export interface StoreFileList {
  kind?: string;
  files?: StoreFile[];
  nextPageToken?: string;
  [key: string]: unknown;
}

/** Answer of `files.generateIds` (supplement §4). */
export interface StoreGeneratedIds {
  kind?: string;
  space?: string;
  ids: string[];
}

/** The about resource (supplement §5): `importFormats` maps a source MIME type to the native kinds it converts to. */
export interface StoreAbout {
  kind?: string;
  user?: StoreUser;
  importFormats?: Record<string, string[]>;
  exportFormats?: Record<string, string[]>;
  maxImportSizes?: Record<string, string>;
  maxUploadSize?: string;
  storageQuota?: Record<string, string>;
  [key: string]: unknown;
}

/** Writable metadata of a file for create and update calls. */
export interface FileMetadataInput {
  id?: string;
  name?: string;
  mimeType?: string;
  parents?: string[];
  description?: string;
  trashed?: boolean;
  [key: string]: unknown;
}

/** Body of a permission create (spec §2.2). */
export interface PermissionInput {
  type: 'user' | 'domain';
  role: 'reader' | 'writer';
  emailAddress?: string;
  domain?: string;
}
