import type { ExportFormat } from '../../contract/exports';
import { CSV_COLUMNS, CSV_TEXT_COLUMNS, type CsvColumn } from '../../contract/exports';

/**
 * The two export encodings (docs/contract.md §12, §14 "Exports"). Each turns one listing item
 * into one line of text, so the worker never holds more than a line per entry.
 */

/** A listing item as `GET /v1/accounts/{id}/transactions` returns it. */
export type ListingItem = object;

export interface ExportEncoder {
  /** Written once before the first row (the CSV header); empty for JSON Lines. */
  readonly header: string;
  /** One row, line end included. */
  row(item: ListingItem): string;
}

const CRLF = '\r\n';

/**
 * Spreadsheets run a cell that starts with one of these as a formula (CSV injection); tab and
 * carriage return are on OWASP's list too, as some programs strip them and read on.
 */
const FORMULA_TRIGGERS = new Set(['=', '+', '-', '@', '\t', '\r']);

/** Prefixes a text cell that a spreadsheet would run as a formula with a single quote. */
export function guardFormula(text: string): string {
  return FORMULA_TRIGGERS.has(text.charAt(0)) ? `'${text}` : text;
}

/** RFC 4180: a field with a comma, a double quote, CR or LF is quoted, its quotes doubled. */
export function quoteField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * A cell's text: `reversalOf` as `<kind>:<id>` (e.g. `entry:6f1c…`), `metadata` as its JSON
 * text, anything else as it is (docs/contract.md §14).
 */
function cellText(column: CsvColumn, value: unknown): string {
  if (column === 'metadata') return JSON.stringify(value);
  if (column === 'reversalOf' && typeof value === 'object' && value !== null) {
    const { kind, id } = value as { kind?: unknown; id?: unknown };
    return `${String(kind)}:${String(id)}`;
  }
  return String(value);
}

function csvCell(item: ListingItem, column: CsvColumn): string {
  const value: unknown = (item as Record<string, unknown>)[column];
  if (value === undefined || value === null) return '';
  const text = cellText(column, value);
  return quoteField(CSV_TEXT_COLUMNS.has(column) ? guardFormula(text) : text);
}

export const csvEncoder: ExportEncoder = {
  header: `${CSV_COLUMNS.join(',')}${CRLF}`,
  row: (item) => `${CSV_COLUMNS.map((column) => csvCell(item, column)).join(',')}${CRLF}`,
};

/** Each line is the listing item verbatim (the same JSON the listing route serialises). */
export const jsonLinesEncoder: ExportEncoder = {
  header: '',
  row: (item) => `${JSON.stringify(item)}\n`,
};

export function encoderFor(format: ExportFormat): ExportEncoder {
  return format === 'csv' ? csvEncoder : jsonLinesEncoder;
}
