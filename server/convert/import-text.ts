/** Plain text → document: one paragraph per line, as the modelled service imports text files. */
import { decodeText, splitLines } from './decode-text.ts';
import type { Importer } from './importer.ts';

/** Imports a `text/plain` file as a document. */
export const importTextDocument: Importer = async (bytes, ctx) => {
  const text = decodeText(bytes, 'text file', ctx.charset);
  return { kind: 'document', blocks: splitLines(text).map((line) => ({ type: 'paragraph', text: line })) };
};
