/**
 * Excel 97–2003 (xls) and OpenDocument spreadsheets (ods) → spreadsheet with SheetJS (`@e965/xlsx`, the maintained
 * 0.20 line on npm). SheetJS reads almost anything as CSV, so the container signature is checked first.
 */
import * as XLSX from '@e965/xlsx';
import { ConversionError, corrupt } from './conversion-error.ts';
import { trimRow } from './import-delimited.ts';
import type { Importer } from './importer.ts';
import { MIME } from './mime-types.ts';
import type { CellValue } from './native-content.ts';

const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

/** Imports an XLS or ODS workbook as a spreadsheet. */
export const importSheetJs: Importer = async (bytes, ctx) => {
  const isXls = ctx.mimeType === MIME.xls;
  const what = isXls ? 'Excel 97–2003 workbook' : 'OpenDocument spreadsheet';
  const magic = isXls ? OLE_MAGIC : ZIP_MAGIC;
  if (!magic.every((b, i) => bytes[i] === b)) {
    throw new ConversionError(
      'corrupt',
      `The file is not a valid ${what}: it is not ${isXls ? 'an OLE compound' : 'a zip'} file.`,
    );
  }
  let workbook: XLSX.WorkBook;
  try {
    workbook = XLSX.read(bytes, { type: 'array', cellDates: true, WTF: false });
  } catch (err) {
    throw corrupt(what, err);
  }
  const sheets = workbook.SheetNames.map((name) => {
    const ws = workbook.Sheets[name];
    const rows = ws
      ? XLSX.utils.sheet_to_json<unknown[]>(ws, { header: 1, raw: true, defval: null, blankrows: true })
      : [];
    return { name, rows: rows.map((r) => trimRow(r.map(cellOf))) };
  });
  return { kind: 'spreadsheet', sheets };
};

function cellOf(v: unknown): CellValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (v instanceof Date) return v.toISOString();
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a cell of another kind (rich text, a formula error) prints as its own toString.
  return String(v);
}
