// Its own module so that only code that names export files (a lazily loaded download menu) carries the table.
/** File extensions of the formats native kinds export to; others use the MIME subtype's last word. */
const EXPORT_EXTENSIONS: Readonly<Record<string, string>> = {
  'text/plain': 'txt',
  'text/tab-separated-values': 'tsv',
  'text/markdown': 'md',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
  'application/vnd.oasis.opendocument.text': 'odt',
  'application/vnd.oasis.opendocument.presentation': 'odp',
};

/** The extension of an export format, also its short name: `text/csv` → `csv`, `…script+json` → `json`. */
export function exportExtension(mimeType: string): string {
  return EXPORT_EXTENSIONS[mimeType] ?? mimeType.split(';')[0].split('/')[1]?.split(/[.+]/).pop() ?? 'bin';
}
