/**
 * CSV, TSV and plain text → spreadsheet with csv-parse. Plain text picks its delimiter from the first line
 * (tab, then comma, else one column), as spreadsheet apps do when opening a .txt file.
 */
import { parse } from 'csv-parse/sync';
import { ConversionError } from './conversion-error.ts';
import { decodeText } from './decode-text.ts';
import type { Importer } from './importer.ts';
import { MIME } from './mime-types.ts';
import type { CellValue } from './native-content.ts';

/** Imports CSV, TSV or plain text as a one-sheet spreadsheet. */
export const importDelimited: Importer = async (bytes, ctx) => {
  const what = ctx.mimeType === MIME.csv ? 'CSV file' : ctx.mimeType === MIME.tsv ? 'TSV file' : 'text file';
  const text = decodeText(bytes, what, ctx.charset);
  const delimiter = delimiterFor(ctx.mimeType, text);
  let records: string[][];
  try {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- csv-parse's overloads do not infer rows of strings from these options.
    records = parse(text, {
      delimiter,
      relax_column_count: true,
      // Files mixing line-end styles are common; csv-parse would otherwise lock onto the first one it sees.
      record_delimiter: ['\r\n', '\n', '\r'],
      // TSV and plain text have no quoting convention; a stray quote is data, not syntax.
      quote: delimiter === ',' ? '"' : false,
      skip_empty_lines: false,
    }) as string[][];
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    throw new ConversionError('corrupt', `The ${what} could not be parsed: ${detail}`, { cause: err });
  }
  return { kind: 'spreadsheet', sheets: [{ name: 'Sheet1', rows: records.map((r) => trimRow(r.map(cellOf))) }] };
};

function delimiterFor(mimeType: string, text: string): string {
  if (mimeType === MIME.csv) return ',';
  if (mimeType === MIME.tsv) return '\t';
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  if (firstLine.includes('\t')) return '\t';
  if (firstLine.includes(',')) return ',';
  // A delimiter that cannot occur in text keeps each line as one cell.
  return '\u0000';
}

/** A number only when printing it gives back the same text, so "007" or "1.50" stay text and nothing is lost. */
function cellOf(raw: string): CellValue {
  if (raw === '') return null;
  const n = Number(raw);
  return raw.trim() === raw && Number.isFinite(n) && String(n) === raw ? n : raw;
}

/** Drops trailing empty cells so rows are as long as their content. */
export function trimRow(row: CellValue[]): CellValue[] {
  let end = row.length;
  while (end > 0 && (row[end - 1] === null || row[end - 1] === '')) end--;
  return row.slice(0, end);
}
