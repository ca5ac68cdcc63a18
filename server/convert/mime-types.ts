/** Source and export MIME types the converter knows, named once so tables and importers agree. */

export const MIME = {
  // word processing
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  dotx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.template',
  docm: 'application/vnd.ms-word.document.macroenabled.12',
  doc: 'application/msword',
  odt: 'application/vnd.oasis.opendocument.text',
  odtLegacy: 'application/x-vnd.oasis.opendocument.text',
  rtf: 'application/rtf',
  rtfText: 'text/rtf',
  html: 'text/html',
  plain: 'text/plain',
  markdown: 'text/markdown',
  pdf: 'application/pdf',
  // images
  jpeg: 'image/jpeg',
  jpg: 'image/jpg',
  pjpeg: 'image/pjpeg',
  png: 'image/png',
  xPng: 'image/x-png',
  gif: 'image/gif',
  bmp: 'image/bmp',
  xBmp: 'image/x-bmp',
  // spreadsheets
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xlsm: 'application/vnd.ms-excel.sheet.macroenabled.12',
  xls: 'application/vnd.ms-excel',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odsLegacy: 'application/x-vnd.oasis.opendocument.spreadsheet',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  // presentations
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  pptm: 'application/vnd.ms-powerpoint.presentation.macroenabled.12',
  ppt: 'application/vnd.ms-powerpoint',
  odp: 'application/vnd.oasis.opendocument.presentation',
  odpLegacy: 'application/x-vnd.oasis.opendocument.presentation',
  // scripts
  json: 'application/json',
  scriptJson: 'application/vnd.svc-apps.script+json',
} as const;

/** Lower-cased type/subtype without parameters: `Text/CSV; charset=utf-8` → `text/csv`. */
export function baseMime(mimeType: string): string {
  return (mimeType.split(';')[0] ?? '').trim().toLowerCase();
}

/** The `charset` parameter of a MIME type, lower-cased, if present. */
export function charsetOf(mimeType: string): string | undefined {
  const m = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(mimeType);
  return m?.[1]?.toLowerCase();
}
