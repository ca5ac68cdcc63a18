/** Field schemas of every resource the service returns, for validating `fields` selections (supplement §3). */
import type { FieldSchema } from './fields.ts';

/** A user (owners, about.user). */
export const USER_SCHEMA: FieldSchema = {
  fields: {
    kind: 'leaf',
    displayName: 'leaf',
    emailAddress: 'leaf',
    permissionId: 'leaf',
    me: 'leaf',
    photoLink: 'leaf',
  },
};

/** A permission on a file. */
export const PERMISSION_SCHEMA: FieldSchema = {
  fields: {
    kind: 'leaf',
    id: 'leaf',
    type: 'leaf',
    role: 'leaf',
    emailAddress: 'leaf',
    domain: 'leaf',
    displayName: 'leaf',
    allowFileDiscovery: 'leaf',
    deleted: 'leaf',
  },
};

/** A permission list. */
export const PERMISSION_LIST_SCHEMA: FieldSchema = {
  fields: { kind: 'leaf', nextPageToken: 'leaf', permissions: PERMISSION_SCHEMA },
};

/** A file resource (supplement §2). */
export const FILE_SCHEMA: FieldSchema = {
  fields: {
    kind: 'leaf',
    id: 'leaf',
    name: 'leaf',
    mimeType: 'leaf',
    description: 'leaf',
    parents: 'leaf',
    size: 'leaf',
    md5Checksum: 'leaf',
    createdTime: 'leaf',
    modifiedTime: 'leaf',
    trashed: 'leaf',
    version: 'leaf',
    originalFilename: 'leaf',
    permissions: PERMISSION_SCHEMA,
    owners: USER_SCHEMA,
  },
};

/** A page of files (`GET /store/v3/files`). */
export const FILE_LIST_SCHEMA: FieldSchema = {
  fields: { kind: 'leaf', nextPageToken: 'leaf', incompleteSearch: 'leaf', files: FILE_SCHEMA },
};

/** `GET /store/v3/files/generateIds`. */
export const GENERATED_IDS_SCHEMA: FieldSchema = {
  fields: { kind: 'leaf', space: 'leaf', ids: 'leaf' },
};

/** The about resource (supplement §5). */
export const ABOUT_SCHEMA: FieldSchema = {
  fields: {
    kind: 'leaf',
    user: USER_SCHEMA,
    storageQuota: { fields: { limit: 'leaf', usage: 'leaf', usageInDrive: 'leaf', usageInDriveTrash: 'leaf' } },
    importFormats: { map: 'leaf' },
    exportFormats: { map: 'leaf' },
    maxImportSizes: { map: 'leaf' },
    maxUploadSize: 'leaf',
  },
};

/** One change-log entry (supplement §8). */
export const CHANGE_SCHEMA: FieldSchema = {
  fields: {
    kind: 'leaf',
    changeType: 'leaf',
    time: 'leaf',
    removed: 'leaf',
    fileId: 'leaf',
    file: FILE_SCHEMA,
  },
};

/** A page of the change log. */
export const CHANGE_LIST_SCHEMA: FieldSchema = {
  fields: { kind: 'leaf', nextPageToken: 'leaf', newStartPageToken: 'leaf', changes: CHANGE_SCHEMA },
};

/** `GET /store/v3/changes/startPageToken`. */
export const START_PAGE_TOKEN_SCHEMA: FieldSchema = {
  fields: { kind: 'leaf', startPageToken: 'leaf' },
};

/** A notification channel (spec §2.4). */
export const CHANNEL_SCHEMA: FieldSchema = {
  fields: {
    kind: 'leaf',
    id: 'leaf',
    resourceId: 'leaf',
    resourceUri: 'leaf',
    token: 'leaf',
    expiration: 'leaf',
    type: 'leaf',
    address: 'leaf',
    payload: 'leaf',
    params: { map: 'leaf' },
  },
};
