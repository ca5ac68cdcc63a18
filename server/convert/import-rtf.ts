/** RTF → document: one paragraph per paragraph break of the text `rtfToText` extracts. */
import { splitLines } from './decode-text.ts';
import type { Importer } from './importer.ts';
import { rtfToText } from './rtf-text.ts';

/** Imports an RTF file as a document. */
export const importRtf: Importer = async (bytes) => {
  // RTF is 7-bit by definition; latin1 maps every byte to one char so \'hh and \bin offsets stay right.
  const text = rtfToText(new TextDecoder('latin1').decode(bytes));
  return { kind: 'document', blocks: splitLines(text).map((line) => ({ type: 'paragraph', text: line })) };
};
