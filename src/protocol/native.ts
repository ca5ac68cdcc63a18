/** MIME types of the service's own (native) kinds, shared by the kit and the reference service. */

/** The prefix every native kind's MIME type starts with. */
export const NATIVE_PREFIX = 'application/vnd.svc-apps.';

export const FOLDER_MIME = 'application/vnd.svc-apps.folder';
export const DOCUMENT_MIME = 'application/vnd.svc-apps.document';
export const SPREADSHEET_MIME = 'application/vnd.svc-apps.spreadsheet';
export const PRESENTATION_MIME = 'application/vnd.svc-apps.presentation';
export const SCRIPT_MIME = 'application/vnd.svc-apps.script';
/** The special plain-text type that imports as a script project. */
export const SCRIPT_TEXT_MIME = 'application/vnd.svc-apps.script+text/plain';

/** The native kinds media can be converted into. */
export const CONVERTIBLE_NATIVE_KINDS = [DOCUMENT_MIME, SPREADSHEET_MIME, PRESENTATION_MIME, SCRIPT_MIME] as const;
export type NativeKind = (typeof CONVERTIBLE_NATIVE_KINDS)[number];

/** True for a native kind other than a folder: content is structured, not downloadable bytes. */
export function isNativeDocumentKind(mimeType: string | undefined): mimeType is NativeKind {
  return (CONVERTIBLE_NATIVE_KINDS as readonly string[]).includes(mimeType ?? '');
}

/** True for any `application/vnd.svc-apps.*` type except the script+text import type, which is media. */
export function isNativeMime(mimeType: string | undefined): boolean {
  return !!mimeType && mimeType.startsWith(NATIVE_PREFIX) && mimeType !== SCRIPT_TEXT_MIME;
}
