import { ABOUT_PATH, FILES_PATH, GENERATE_IDS_PATH, filePath, permissionsPath } from '../protocol/routes.ts';
import type { ApiCall, FieldsOption } from './api-call.ts';
import type {
  FileMetadataInput,
  PermissionInput,
  StoreAbout,
  StoreFile,
  StoreFileList,
  StoreGeneratedIds,
  StorePermission,
} from './resources.ts';

/** Names a `fields` selection of a file may start with. */
export type FileField = Extract<keyof StoreFile, string>;
/** Names a `fields` selection of a file list may start with (`files(id,name),nextPageToken`). */
export type FileListField = Extract<keyof StoreFileList, string>;
/** Names a `fields` selection of the about resource may start with. */
export type AboutField = Extract<keyof StoreAbout, string>;
/** Names a `fields` selection of a permission may start with. */
export type PermissionField = Extract<keyof StorePermission, string>;

/** Options of `files.list` (supplement §2): `q` supports `'<id>' in parents`, `name = '…'`, `trashed = …`. */
export interface ListFilesOptions {
  q?: string;
  pageSize?: number;
  pageToken?: string;
  fields?: FieldsOption;
}

/** Options of a file update (metadata only, `PATCH`). */
export interface UpdateFileOptions {
  addParents?: string[];
  removeParents?: string[];
  fields?: FieldsOption;
}

/**
 * Builders of the API calls the kit uses. Each returns an `ApiCall` that `client.send` runs alone or `client.batch`
 * runs together with others; the client's typed methods are these plus `send`. One function each, so that the upload
 * worker's client takes only the three it makes (a bundler keeps every method of an object).
 */
export const calls = { getFile, listFiles, createFile, updateFile, deleteFile, generateIds, about, createPermission };

export function getFile(fileId: string, options: { fields?: FieldsOption } = {}): ApiCall<StoreFile> {
  return { method: 'GET', path: filePath(fileId), ...fieldsPart(options.fields) };
}

function listFiles(options: ListFilesOptions = {}): ApiCall<StoreFileList> {
  const { fields, ...query } = options;
  return { method: 'GET', path: FILES_PATH, query: { ...query }, ...fieldsPart(fields) };
}

export function createFile(metadata: FileMetadataInput, options: { fields?: FieldsOption } = {}): ApiCall<StoreFile> {
  return { method: 'POST', path: FILES_PATH, body: metadata, ...fieldsPart(options.fields) };
}

function updateFile(fileId: string, metadata: FileMetadataInput, options: UpdateFileOptions = {}): ApiCall<StoreFile> {
  const query = {
    addParents: options.addParents?.join(','),
    removeParents: options.removeParents?.join(','),
  };
  return { method: 'PATCH', path: filePath(fileId), query, body: metadata, ...fieldsPart(options.fields) };
}

function deleteFile(fileId: string): ApiCall<void> {
  return { method: 'DELETE', path: filePath(fileId) };
}

export function generateIds(count = 10): ApiCall<StoreGeneratedIds> {
  return { method: 'GET', path: GENERATE_IDS_PATH, query: { count, space: 'drive', type: 'files' } };
}

export function about(options: { fields?: FieldsOption } = {}): ApiCall<StoreAbout> {
  return { method: 'GET', path: ABOUT_PATH, ...fieldsPart(options.fields) };
}

function createPermission(
  fileId: string,
  permission: PermissionInput,
  options: { sendNotificationEmail?: boolean; fields?: FieldsOption } = {},
): ApiCall<StorePermission> {
  return {
    method: 'POST',
    path: permissionsPath(fileId),
    query: { sendNotificationEmail: options.sendNotificationEmail },
    body: permission,
    ...fieldsPart(options.fields),
  };
}

function fieldsPart(fields: FieldsOption | undefined): { fields?: FieldsOption } {
  return fields === undefined ? {} : { fields };
}
