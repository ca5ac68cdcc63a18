/** Excel OOXML (xlsx, xlsm) → spreadsheet with exceljs: cached formula results, rich text as plain text, dates as ISO. */
import ExcelJS from 'exceljs';
import { corrupt } from './conversion-error.ts';
import { trimRow } from './import-delimited.ts';
import type { Importer } from './importer.ts';
import type { CellValue, Sheet } from './native-content.ts';

/** Imports an XLSX workbook as a spreadsheet, one sheet per worksheet. */
export const importXlsx: Importer = async (bytes) => {
  const workbook = new ExcelJS.Workbook();
  try {
    // exceljs types ask for a Node Buffer; the bytes are one.
    await workbook.xlsx.load(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as unknown as ArrayBuffer);
  } catch (err) {
    throw corrupt('Excel workbook', err);
  }
  const sheets: Sheet[] = workbook.worksheets.map((ws) => {
    const rows: CellValue[][] = [];
    ws.eachRow({ includeEmpty: true }, (row, rowNumber) => {
      const cells: CellValue[] = [];
      row.eachCell({ includeEmpty: true }, (cell, col) => {
        cells[col - 1] = valueOf(cell.value);
      });
      rows[rowNumber - 1] = trimRow(Array.from(cells, (c) => c ?? null));
    });
    return { name: ws.name, rows: Array.from(rows, (r) => r ?? []) };
  });
  return { kind: 'spreadsheet', sheets };
};

/** A plain cell value from exceljs's union of value shapes. */
function valueOf(v: ExcelJS.CellValue): CellValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (v instanceof Date) return v.toISOString();
  if ('richText' in v) return v.richText.map((r) => r.text).join('');
  if ('formula' in v || 'sharedFormula' in v) return valueOf((v as ExcelJS.CellFormulaValue).result);
  if ('hyperlink' in v) return typeof v.text === 'string' ? v.text : valueOf(v.text);
  if ('error' in v) return v.error;
  return null;
}
