/**
 * How an import's rows go to the server: in batches of consecutive file rows (at most
 * importLimits.batchRows rows and a JSON budget under the contract's 4 MiB), numbered from 0.
 * The plan depends only on the file and the mapping (both fixed by the import's hash and its
 * stored mapping), so a resumed import numbers its batches exactly as the first run did and
 * the server's idempotent batches never write a row twice. Each batch sends its rows the
 * browser found nothing wrong with.
 */
import { importLimits } from "@/lib/spreadsheet/index.ts";
import { hasLocalProblem, type CellValue, type PreparedRow } from "./prepare-rows.ts";

/**
 * JSON bytes a batch may take by our estimate: the server refuses above 4 MiB; the estimate
 * counts the mapped cells' text, and the rest is room for what reading them adds (tags become
 * arrays) and for the server's own measure of the JSON.
 */
export const BATCH_BYTE_BUDGET = 3 * 1024 * 1024;

export interface BatchRange {
  /** The batch number the server stores (from 0). */
  number: number;
  /** Data row indexes [start, end). */
  start: number;
  end: number;
}

/** What one batch sends: the rows (their file row numbers, echoed back) and their values. */
export interface BatchRow {
  row: number;
  values: Record<string, CellValue>;
}

/** Bytes of a text inside JSON: UTF-8, quotes, backslashes and control characters escaped. */
export function jsonTextBytes(text: string): number {
  let bytes = 2;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 0x22 || code === 0x5c) bytes += 2;
    else if (code < 0x20) bytes += 6;
    else if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    // A surrogate pair (4 bytes in UTF-8) counts 2 for each half.
    else if (code >= 0xd800 && code <= 0xdfff) bytes += 2;
    else bytes += 3;
  }
  return bytes;
}

/** A row's estimated JSON size from its mapped cells: {"row": n, "values": {"key": "text", …}}. */
export function rowBytes(cells: readonly string[], columns: readonly { column: number; field: { key: string } }[]): number {
  let bytes = 30;
  for (const { column, field } of columns) {
    const text = cells[column] ?? "";
    if (text.trim() !== "") bytes += jsonTextBytes(text) + field.key.length + 4;
  }
  return bytes;
}

/** Consecutive rows in batches of at most `maxRows` rows and `maxBytes` estimated bytes (a row above it goes alone). */
export function planBatches(rowSizes: readonly number[], maxRows: number = importLimits.batchRows, maxBytes = BATCH_BYTE_BUDGET): BatchRange[] {
  const batches: BatchRange[] = [];
  let start = 0;
  let bytes = 2;
  rowSizes.forEach((size, index) => {
    if (index > start && (index - start >= maxRows || bytes + size + 1 > maxBytes)) {
      batches.push({ number: batches.length, start, end: index });
      start = index;
      bytes = 2;
    }
    bytes += size + 1;
  });
  if (rowSizes.length > start) batches.push({ number: batches.length, start, end: rowSizes.length });
  return batches;
}

/** The rows a batch sends: those of its range the browser found nothing wrong with. */
export function batchRows(batch: BatchRange, rows: readonly PreparedRow[]): BatchRow[] {
  return rows.slice(batch.start, batch.end).flatMap((row) => (hasLocalProblem(row) ? [] : [{ row: row.row, values: row.values }]));
}

/** The batches still to send, in order: every planned batch the server has not applied (resuming starts at the first missing one). */
export function batchesToRun(plan: readonly BatchRange[], applied: readonly number[]): BatchRange[] {
  const done = new Set(applied);
  return plan.filter((batch) => !done.has(batch.number));
}

/** How many file rows the given batches cover. */
export function rowsIn(batches: readonly BatchRange[]): number {
  return batches.reduce((sum, batch) => sum + batch.end - batch.start, 0);
}

/**
 * Why a picked file cannot continue an import: another row count, or batches the server
 * applied that this file's plan does not have (the same file always plans the same batches).
 */
export function resumeMismatch(plan: readonly BatchRange[], rowCount: number, stored: { total_rows: number; batches: readonly number[] }): "rows" | "batches" | null {
  if (stored.total_rows !== rowCount) return "rows";
  return stored.batches.some((number) => !Number.isInteger(number) || number < 0 || number >= plan.length) ? "batches" : null;
}
