/** `exportNative`: renders stored native content in one of the MIME types `exportFormats` lists for its kind. */
import { DOCUMENT_MIME, PRESENTATION_MIME, SCRIPT_MIME, SPREADSHEET_MIME } from 'store-upload-kit/protocol';
import type { NativeKind } from 'store-upload-kit/protocol';
import { ConversionError } from './conversion-error.ts';
import { documentToHtml, documentToMarkdown, documentToText } from './export-document.ts';
import { documentToDocx } from './export-docx.ts';
import { spreadsheetToCsv, spreadsheetToOds, spreadsheetToTsv, spreadsheetToXlsx } from './export-spreadsheet.ts';
import { EXPORT_MIME, exportFormats } from './formats.ts';
import { baseMime } from './mime-types.ts';
import type { NativeContent } from './native-content.ts';

/** The exported bytes and the `Content-Type` to serve them with. */
export interface ExportResult {
  body: Uint8Array;
  mimeType: string;
}

const KIND_OF: Readonly<Record<NativeContent['kind'], NativeKind>> = {
  document: DOCUMENT_MIME,
  spreadsheet: SPREADSHEET_MIME,
  presentation: PRESENTATION_MIME,
  script: SCRIPT_MIME,
};

const utf8 = (text: string, type: string): ExportResult => ({
  body: new TextEncoder().encode(text),
  mimeType: `${type}; charset=utf-8`,
});

/**
 * Exports `content` (of native kind `kind`) as `mimeType`.
 * A type not in `exportFormats[kind]` → `ConversionError('unsupportedExport')` naming the kind, the type and what is offered.
 */
export async function exportNative(content: NativeContent, kind: NativeKind, mimeType: string): Promise<ExportResult> {
  const type = baseMime(mimeType);
  const offered = exportFormats[kind] ?? [];
  if (!offered.includes(type)) {
    throw new ConversionError(
      'unsupportedExport',
      `Export of ${kind} to ${type || '(no type)'} is not supported; it exports to ${offered.join(', ') || 'nothing'}.`,
    );
  }
  if (KIND_OF[content.kind] !== kind) {
    throw new ConversionError('unsupportedExport', `The stored content is a ${content.kind}, not ${kind}.`);
  }
  switch (content.kind) {
    case 'document':
      if (type === EXPORT_MIME.plain) return utf8(documentToText(content), type);
      if (type === EXPORT_MIME.html) return utf8(documentToHtml(content), type);
      if (type === EXPORT_MIME.markdown) return utf8(documentToMarkdown(content), type);
      return { body: await documentToDocx(content), mimeType: type };
    case 'spreadsheet':
      if (type === EXPORT_MIME.csv) return utf8(spreadsheetToCsv(content), type);
      if (type === EXPORT_MIME.tsv) return utf8(spreadsheetToTsv(content), type);
      if (type === EXPORT_MIME.xlsx) return { body: await spreadsheetToXlsx(content), mimeType: type };
      return { body: spreadsheetToOds(content), mimeType: type };
    case 'presentation': {
      const text = content.slides.map((s) => s.paragraphs.join('\n')).join('\n\n');
      return utf8(text ? `${text}\n` : '', type);
    }
    case 'script':
      return { body: new TextEncoder().encode(JSON.stringify({ files: content.files })), mimeType: type };
  }
}
