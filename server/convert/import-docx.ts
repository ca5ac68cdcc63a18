/** Word (OOXML: docx, dotx, docm) → document: mammoth turns it into semantic HTML, which the HTML importer reads. */
import mammoth from 'mammoth';
import { corrupt } from './conversion-error.ts';
import { htmlToDocument } from './import-html.ts';
import type { Importer } from './importer.ts';

/** Imports a Word OOXML file as a document (images are kept, embedded as data). */
export const importDocx: Importer = async (bytes) => {
  let html: string;
  try {
    html = (await mammoth.convertToHtml({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) }))
      .value;
  } catch (err) {
    throw corrupt('Word document', err);
  }
  return htmlToDocument(html);
};
