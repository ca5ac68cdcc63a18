/** Word 97–2003 (.doc) → document with word-extractor, which reads the binary format's text and paragraphs. */
import WordExtractor from 'word-extractor';
import { ConversionError, corrupt } from './conversion-error.ts';
import { splitLines } from './decode-text.ts';
import type { Importer } from './importer.ts';

const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/** Imports a binary Word document as a document of plain paragraphs. */
export const importDoc: Importer = async (bytes) => {
  if (!OLE_MAGIC.every((b, i) => bytes[i] === b)) {
    throw new ConversionError(
      'corrupt',
      'The file is not a valid Word 97–2003 document: it is not an OLE compound file.',
    );
  }
  let body: string;
  try {
    const doc = await new WordExtractor().extract(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    body = doc.getBody();
  } catch (err) {
    throw corrupt('Word 97–2003 document', err);
  }
  return { kind: 'document', blocks: splitLines(body).map((text) => ({ type: 'paragraph', text })) };
};
