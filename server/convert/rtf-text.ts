/**
 * Minimal RTF → plain text: follows groups, skips non-text destinations (font tables, pictures, metadata, `\*`
 * groups), decodes `\'hh` bytes in the document's ANSI code page and `\uN` with its `\ucN` fallback skip.
 * Formatting is dropped; paragraph, line, tab and cell/row breaks are kept.
 */
import { TextDecoder } from 'node:util';
import { ConversionError } from './conversion-error.ts';

const IGNORED_DESTINATIONS = new Set([
  'fonttbl',
  'colortbl',
  'stylesheet',
  'info',
  'pict',
  'object',
  'header',
  'headerl',
  'headerr',
  'headerf',
  'footer',
  'footerl',
  'footerr',
  'footerf',
  'footnote',
  'themedata',
  'colorschememapping',
  'datastore',
  'latentstyles',
  'listtable',
  'listoverridetable',
  'rsidtbl',
  'xmlnstbl',
  'generator',
  'filetbl',
  'revtbl',
  'pgdsctbl',
  'fldinst',
  'field-instruction',
  'bkmkstart',
  'bkmkend',
  'nonshppict',
  'shppict',
  'sp',
  'mmathPr',
]);

const SPECIAL: Readonly<Record<string, string>> = {
  par: '\n',
  sect: '\n',
  page: '\n',
  line: '\n',
  row: '\n',
  tab: '\t',
  cell: '\t',
  emdash: '\u2014',
  endash: '\u2013',
  emspace: '\u2003',
  enspace: '\u2002',
  qmspace: '\u2005',
  bullet: '\u2022',
  lquote: '\u2018',
  rquote: '\u2019',
  ldblquote: '\u201c',
  rdblquote: '\u201d',
};

/** Code pages that `\ansicpgN` may name and TextDecoder knows. */
function decoderFor(codePage: number): TextDecoder {
  const label =
    codePage === 932
      ? 'shift_jis'
      : codePage === 936
        ? 'gbk'
        : codePage === 949
          ? 'euc-kr'
          : codePage === 950
            ? 'big5'
            : codePage === 65001
              ? 'utf-8'
              : codePage === 10000
                ? 'macintosh'
                : `windows-${codePage}`;
  try {
    return new TextDecoder(label);
  } catch {
    return new TextDecoder('windows-1252');
  }
}

/** Plain text of an RTF document; not RTF or unbalanced groups → `corrupt`. */
export function rtfToText(rtf: string): string {
  if (!/^\s*\{\\rtf/.test(rtf))
    throw new ConversionError('corrupt', 'The file is not a valid RTF document: it does not start with "{\\rtf".');
  let out = '';
  let decoder = decoderFor(1252);
  let bytes: number[] = []; // pending \'hh bytes, decoded together so double-byte code pages work
  const flushBytes = () => {
    if (bytes.length) out += decoder.decode(new Uint8Array(bytes));
    bytes = [];
  };
  const emit = (s: string) => {
    flushBytes();
    out += s;
  };
  const stack: { ucSkip: number; ignorable: boolean }[] = [];
  let ucSkip = 1;
  let ignorable = false;
  let skip = 0; // fallback characters still to skip after \uN
  let i = 0;
  const n = rtf.length;
  while (i < n) {
    const ch = rtf[i];
    if (ch === '{' || ch === '}') {
      skip = 0;
      if (ch === '{') stack.push({ ucSkip, ignorable });
      else {
        const top = stack.pop();
        if (!top)
          throw new ConversionError('corrupt', `The file is not a valid RTF document: unbalanced "}" at offset ${i}.`);
        ({ ucSkip, ignorable } = top);
      }
      i++;
    } else if (ch === '\\') {
      const next = rtf[i + 1] ?? '';
      if (/[a-zA-Z]/.test(next)) {
        const m = /^([a-zA-Z]{1,32})(-?\d{1,10})? ?/.exec(rtf.slice(i + 1, i + 45))!;
        const word = m[1];
        const arg = m[2] === undefined ? undefined : Number(m[2]);
        i += 1 + m[0].length;
        if (word === 'bin') {
          i += Math.max(arg ?? 0, 0); // raw binary data: never text
          continue;
        }
        skip = 0;
        if (IGNORED_DESTINATIONS.has(word)) ignorable = true;
        else if (ignorable) continue;
        else if (word === 'ansicpg' && arg !== undefined) decoder = decoderFor(arg);
        else if (word === 'uc' && arg !== undefined) ucSkip = arg;
        else if (word === 'u' && arg !== undefined) {
          emit(String.fromCharCode(arg < 0 ? arg + 0x10000 : arg));
          skip = ucSkip;
        } else if (SPECIAL[word] !== undefined) emit(SPECIAL[word]);
      } else if (next === "'") {
        const hex = rtf.slice(i + 2, i + 4);
        i += 4;
        if (skip > 0) skip--;
        else if (!ignorable && /^[0-9a-fA-F]{2}$/.test(hex)) bytes.push(parseInt(hex, 16));
      } else {
        i += 2;
        skip = 0;
        if (next === '*') ignorable = true;
        else if (ignorable) continue;
        else if (next === '~') emit('\u00a0');
        else if (next === '_') emit('\u2011');
        else if (next === '{' || next === '}' || next === '\\') emit(next);
        else if (next === '\n' || next === '\r') emit('\n'); // "\<newline>" is a paragraph break
      }
    } else if (ch === '\r' || ch === '\n') {
      i++;
    } else {
      i++;
      if (skip > 0) skip--;
      else if (!ignorable) emit(ch);
    }
  }
  flushBytes();
  if (stack.length > 0)
    throw new ConversionError(
      'corrupt',
      `The file is not a valid RTF document: ${stack.length} group(s) are not closed (the file may be truncated).`,
    );
  return out;
}
