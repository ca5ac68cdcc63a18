/** Renders native spreadsheet content as CSV, TSV (first sheet, as the modelled service does), XLSX or ODS. */
import * as XLSX from '@e965/xlsx';
import { stringify } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';
import type { CellValue, SpreadsheetContent } from './native-content.ts';

const firstSheetRows = (s: SpreadsheetContent): CellValue[][] => s.sheets[0]?.rows ?? [];

/** RFC 4180 CSV of the first sheet, CRLF line ends. */
export function spreadsheetToCsv(s: SpreadsheetContent): string {
  return stringify(
    firstSheetRows(s).map((r) => r.map((c) => (c === null ? '' : String(c)))),
    { record_delimiter: 'windows', quoted_match: /[\r\n]/ },
  );
}

/** TSV of the first sheet; TSV has no quoting, so tabs and line breaks inside cells become spaces. */
export function spreadsheetToTsv(s: SpreadsheetContent): string {
  return firstSheetRows(s)
    .map((r) => r.map((c) => (c === null ? '' : String(c).replace(/[\t\r\n]+/g, ' '))).join('\t') + '\r\n')
    .join('');
}

/** Sheet names Excel accepts: at most 31 characters, none of `[]:*?/\`, unique. */
function sheetNames(s: SpreadsheetContent): string[] {
  const used = new Set<string>();
  return s.sheets.map((sheet, i) => {
    let name =
      sheet.name
        .replace(/[[\]:*?/\\]/g, ' ')
        .slice(0, 31)
        .trim() || `Sheet${i + 1}`;
    for (let n = 2; used.has(name.toLowerCase()); n++) name = `${name.slice(0, 28)} ${n}`;
    used.add(name.toLowerCase());
    return name;
  });
}

/** XLSX of every sheet (exceljs). */
export async function spreadsheetToXlsx(s: SpreadsheetContent): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const names = sheetNames(s);
  s.sheets.forEach((sheet, i) => {
    const ws = wb.addWorksheet(names[i]);
    for (const row of sheet.rows) ws.addRow(row.map((c) => c ?? undefined));
  });
  if (s.sheets.length === 0) wb.addWorksheet('Sheet1');
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

/** ODS of every sheet (SheetJS). */
export function spreadsheetToOds(s: SpreadsheetContent): Uint8Array {
  const wb = XLSX.utils.book_new();
  const names = sheetNames(s);
  s.sheets.forEach((sheet, i) => XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(sheet.rows), names[i]));
  if (s.sheets.length === 0) XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([]), 'Sheet1');
  return new Uint8Array(XLSX.write(wb, { bookType: 'ods', type: 'array' }) as ArrayBuffer);
}
