/** The few SQL fragments the two dialects write differently; everything else the stores write once. */
import type { Dialect } from './metadata-port.ts';

/** A FROM item listing the elements of a JSON array of strings held as text in `column`, as `j.value`. */
export function jsonArrayItems(dialect: Dialect, column: string): string {
  return dialect === 'sqlite' ? `json_each(${column}) j` : `json_array_elements_text(${column}::json) AS j(value)`;
}

/** The larger of two numbers (SQLite's two-argument MAX, PostgreSQL's GREATEST). */
export function greatest(dialect: Dialect, a: string, b: string): string {
  return dialect === 'sqlite' ? `MAX(${a}, ${b})` : `GREATEST(${a}, ${b})`;
}

/** A column that orders a table's rows by insertion (SQLite's rowid; a serial column elsewhere). */
export function insertionOrder(dialect: Dialect): string {
  return dialect === 'sqlite' ? 'rowid' : 'num';
}
