/**
 * The conversion tables the about resource serves (supplement §5) and the registry that backs them:
 * every (source type, native kind) pair in `importFormats` has exactly one importer, loaded lazily so that
 * reading the tables never loads OCR, pdf.js or the office parsers.
 */
import {
  DOCUMENT_MIME,
  PRESENTATION_MIME,
  SCRIPT_MIME,
  SCRIPT_TEXT_MIME,
  SPREADSHEET_MIME,
} from 'store-upload-kit/protocol';
import type { NativeKind } from 'store-upload-kit/protocol';
import { MIME } from './mime-types.ts';
import type { Importer } from './importer.ts';

type Loader = () => Promise<Importer>;

const doc = {
  docx: () => import('./import-docx.ts').then((m) => m.importDocx),
  doc: () => import('./import-doc.ts').then((m) => m.importDoc),
  odt: () => import('./import-odt.ts').then((m) => m.importOdt),
  rtf: () => import('./import-rtf.ts').then((m) => m.importRtf),
  html: () => import('./import-html.ts').then((m) => m.importHtml),
  text: () => import('./import-text.ts').then((m) => m.importTextDocument),
  markdown: () => import('./import-markdown.ts').then((m) => m.importMarkdown),
  pdf: () => import('./import-pdf.ts').then((m) => m.importPdf),
  image: () => import('./import-image.ts').then((m) => m.importImage),
} satisfies Record<string, Loader>;

const sheet = {
  xlsx: () => import('./import-xlsx.ts').then((m) => m.importXlsx),
  sheetjs: () => import('./import-sheetjs.ts').then((m) => m.importSheetJs),
  delimited: () => import('./import-delimited.ts').then((m) => m.importDelimited),
} satisfies Record<string, Loader>;

const slides = {
  pptx: () => import('./import-pptx.ts').then((m) => m.importPptx),
  ppt: () => import('./import-ppt.ts').then((m) => m.importPpt),
  odp: () => import('./import-odp.ts').then((m) => m.importOdp),
} satisfies Record<string, Loader>;

const script = () => import('./import-script.ts').then((m) => m.importScript);

/** Importers by native kind, then by base source MIME type. */
const IMPORTERS: Readonly<Record<NativeKind, Readonly<Record<string, Loader>>>> = {
  [DOCUMENT_MIME]: {
    [MIME.docx]: doc.docx,
    [MIME.dotx]: doc.docx,
    [MIME.docm]: doc.docx,
    [MIME.doc]: doc.doc,
    [MIME.odt]: doc.odt,
    [MIME.odtLegacy]: doc.odt,
    [MIME.rtf]: doc.rtf,
    [MIME.rtfText]: doc.rtf,
    [MIME.html]: doc.html,
    [MIME.plain]: doc.text,
    [MIME.markdown]: doc.markdown,
    [MIME.pdf]: doc.pdf,
    [MIME.jpeg]: doc.image,
    [MIME.jpg]: doc.image,
    [MIME.pjpeg]: doc.image,
    [MIME.png]: doc.image,
    [MIME.xPng]: doc.image,
    [MIME.gif]: doc.image,
    [MIME.bmp]: doc.image,
    [MIME.xBmp]: doc.image,
  },
  [SPREADSHEET_MIME]: {
    [MIME.xlsx]: sheet.xlsx,
    [MIME.xlsm]: sheet.xlsx,
    [MIME.xls]: sheet.sheetjs,
    [MIME.ods]: sheet.sheetjs,
    [MIME.odsLegacy]: sheet.sheetjs,
    [MIME.csv]: sheet.delimited,
    [MIME.tsv]: sheet.delimited,
    [MIME.plain]: sheet.delimited,
  },
  [PRESENTATION_MIME]: {
    [MIME.pptx]: slides.pptx,
    [MIME.pptm]: slides.pptx,
    [MIME.ppt]: slides.ppt,
    [MIME.odp]: slides.odp,
    [MIME.odpLegacy]: slides.odp,
  },
  [SCRIPT_MIME]: {
    [MIME.json]: script,
    [MIME.scriptJson]: script,
    [SCRIPT_TEXT_MIME]: script,
  },
};

/** The importer for a base source type and a target kind, or undefined when that conversion is not offered. */
export function importerFor(baseSourceMime: string, target: NativeKind): Loader | undefined {
  return IMPORTERS[target]?.[baseSourceMime];
}

/** Source MIME type → the native kinds it converts to (the about resource's `importFormats`). */
export const importFormats: Readonly<Record<string, readonly NativeKind[]>> = (() => {
  const table: Record<string, NativeKind[]> = {};
  for (const [kind, bySource] of Object.entries(IMPORTERS) as [NativeKind, Record<string, Loader>][]) {
    for (const source of Object.keys(bySource)) (table[source] ??= []).push(kind);
  }
  return table;
})();

/** Export MIME types the service renders, by native kind. */
export const EXPORT_MIME = {
  plain: 'text/plain',
  html: 'text/html',
  markdown: 'text/markdown',
  docx: MIME.docx,
  csv: MIME.csv,
  tsv: MIME.tsv,
  xlsx: MIME.xlsx,
  ods: MIME.ods,
  scriptJson: MIME.scriptJson,
} as const;

/** Native kind → MIME types it exports to (the about resource's `exportFormats`). */
export const exportFormats: Readonly<Record<NativeKind, readonly string[]>> = {
  [DOCUMENT_MIME]: [EXPORT_MIME.plain, EXPORT_MIME.html, EXPORT_MIME.markdown, EXPORT_MIME.docx],
  [SPREADSHEET_MIME]: [EXPORT_MIME.csv, EXPORT_MIME.tsv, EXPORT_MIME.xlsx, EXPORT_MIME.ods],
  [PRESENTATION_MIME]: [EXPORT_MIME.plain],
  [SCRIPT_MIME]: [EXPORT_MIME.scriptJson],
};

const MiB = 1024 * 1024;

/** Largest source, in bytes, that converts to each native kind (values of the modelled API). */
export const maxImportSizes: Readonly<Record<NativeKind, number>> = {
  [DOCUMENT_MIME]: 10 * MiB,
  [SPREADSHEET_MIME]: 100 * MiB,
  [PRESENTATION_MIME]: 100 * MiB,
  [SCRIPT_MIME]: 10 * MiB,
};

/** Largest upload the service accepts, in bytes (5 TiB, as the modelled API; the reference store is disk-bound). */
export const maxUploadSize = 5 * 1024 * 1024 * MiB;
