/**
 * The structured, JSON-serialisable content a native file holds after conversion on import.
 * The service stores it as JSON and renders it again on export; nothing here depends on a library's types.
 */

/** A paragraph of a native document. `style` keeps the one piece of structure every export can show. */
export interface DocumentParagraph {
  type: 'paragraph';
  text: string;
  /** `heading1`–`heading6`, `listItem`, `code`, `quote`, or absent for body text. */
  style?: ParagraphStyle;
}

/** Paragraph styles the importers can tell apart. */
export type ParagraphStyle =
  'heading1' | 'heading2' | 'heading3' | 'heading4' | 'heading5' | 'heading6' | 'listItem' | 'code' | 'quote';

/** An image embedded in a native document, with the text OCR found in it (empty when OCR was not run). */
export interface DocumentImage {
  type: 'image';
  /** MIME type of `data`. */
  mimeType: string;
  /** Base64 of the image bytes as imported. */
  data: string;
  width?: number;
  height?: number;
  /** Text found by OCR, lines separated by `\n`. */
  ocrText: string;
  /** The BCP 47 language OCR ran with, when it ran. */
  ocrLanguage?: string;
}

/** One block of a document, in reading order. */
export type DocumentBlock = DocumentParagraph | DocumentImage;

/** Native document content. */
export interface DocumentContent {
  kind: 'document';
  blocks: DocumentBlock[];
}

/** A spreadsheet cell value; dates are ISO 8601 strings, empty cells `null`. */
export type CellValue = string | number | boolean | null;

/** One sheet: rows of cells (rows may differ in length; trailing empties are dropped). */
export interface Sheet {
  name: string;
  rows: CellValue[][];
}

/** Native spreadsheet content. */
export interface SpreadsheetContent {
  kind: 'spreadsheet';
  sheets: Sheet[];
}

/** One slide: its text paragraphs in reading order. */
export interface Slide {
  paragraphs: string[];
}

/** Native presentation content. */
export interface PresentationContent {
  kind: 'presentation';
  slides: Slide[];
}

/** One file of a script project (modelled on the script-project JSON format: name, type, source). */
export interface ScriptFile {
  name: string;
  /** `server_js`, `html` or `json`. */
  type: string;
  source: string;
}

/** Native script project content. */
export interface ScriptContent {
  kind: 'script';
  files: ScriptFile[];
}

/** Content of any native kind; `kind` says which. */
export type NativeContent = DocumentContent | SpreadsheetContent | PresentationContent | ScriptContent;
