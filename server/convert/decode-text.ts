/** Decodes the bytes of a text file strictly, so that binary junk is reported instead of silently mangled. */
import { TextDecoder } from 'node:util';
import { ConversionError } from './conversion-error.ts';

/**
 * Text of `bytes` in `charset` (default UTF-8), without a byte-order mark.
 * Invalid byte sequences → `corrupt`; an unknown charset → `corrupt` naming it.
 */
export function decodeText(bytes: Uint8Array, what: string, charset = 'utf-8'): string {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset, { fatal: true, ignoreBOM: false });
  } catch {
    throw new ConversionError('corrupt', `The ${what} declares charset "${charset}", which is not supported.`);
  }
  try {
    return decoder.decode(bytes);
  } catch {
    throw new ConversionError('corrupt', `The ${what} is not valid ${charset.toUpperCase()} text.`);
  }
}

/** Splits text into lines on CRLF, CR or LF, dropping the empty line after a final line break. */
export function splitLines(text: string): string[] {
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}
