/** Paths of the store service, shared by the browser kit and the reference service so they cannot drift. */

/** Root of every metadata call. */
export const API_ROOT = '/store/v3';
/** Root of every media upload (the API root with the `/upload` prefix). */
export const UPLOAD_ROOT = '/upload/store/v3';
/** The per-API batch path (spec §4.11). */
export const BATCH_PATH = '/batch/store/v3';
/** The files collection. */
export const FILES_PATH = `${API_ROOT}/files`;
/** The upload path of the files collection (create). */
export const UPLOAD_FILES_PATH = `${UPLOAD_ROOT}/files`;
/** Hands out pre-generated file IDs. */
export const GENERATE_IDS_PATH = `${FILES_PATH}/generateIds`;
/** The about resource. */
export const ABOUT_PATH = `${API_ROOT}/about`;
/** The change log. */
export const CHANGES_PATH = `${API_ROOT}/changes`;
/** The change log's start page token. */
export const START_PAGE_TOKEN_PATH = `${CHANGES_PATH}/startPageToken`;
/** Watching the change log. */
export const CHANGES_WATCH_PATH = `${CHANGES_PATH}/watch`;
/** Stopping any notification channel. */
export const CHANNELS_STOP_PATH = `${API_ROOT}/channels/stop`;

/** The three `uploadType` values (spec §1). */
export type UploadType = 'media' | 'multipart' | 'resumable';
/** All upload types, for validation. */
export const UPLOAD_TYPES: readonly UploadType[] = ['media', 'multipart', 'resumable'];

/** Resource `kind` values (supplement preamble). */
export const KIND = {
  file: 'store#file',
  fileList: 'store#fileList',
  permission: 'store#permission',
  permissionList: 'store#permissionList',
  user: 'store#user',
  about: 'store#about',
  generatedIds: 'store#generatedIds',
  change: 'store#change',
  changeList: 'store#changeList',
  changes: 'store#changes',
  startPageToken: 'store#startPageToken',
  channel: 'api#channel',
} as const;

/** `/store/v3/files/<id>` with the id URL-encoded. */
export function filePath(fileId: string): string {
  return `${FILES_PATH}/${encodeURIComponent(fileId)}`;
}

/** `/upload/store/v3/files/<id>` (update with media). */
export function uploadFilePath(fileId: string): string {
  return `${UPLOAD_FILES_PATH}/${encodeURIComponent(fileId)}`;
}

/** `/store/v3/files/<id>/permissions`. */
export function permissionsPath(fileId: string): string {
  return `${filePath(fileId)}/permissions`;
}

/** `/store/v3/files/<id>/permissions/<permissionId>`. */
export function permissionPath(fileId: string, permissionId: string): string {
  return `${permissionsPath(fileId)}/${encodeURIComponent(permissionId)}`;
}

/** `/store/v3/files/<id>/watch`. */
export function fileWatchPath(fileId: string): string {
  return `${filePath(fileId)}/watch`;
}

/** `/store/v3/files/<id>/export`. */
export function fileExportPath(fileId: string): string {
  return `${filePath(fileId)}/export`;
}

/**
 * The session URI path + query of a resumable upload (supplement §1): an update session keeps `/files/<id>`.
 * The service prefixes its base URL; a client uses the `Location` it was given rather than building this.
 */
export function sessionPath(uploadId: string, fileId?: string): string {
  const base = fileId === undefined ? UPLOAD_FILES_PATH : uploadFilePath(fileId);
  return `${base}?uploadType=resumable&upload_id=${encodeURIComponent(uploadId)}`;
}
