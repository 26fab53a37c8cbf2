/**
 * A list's export as pure steps: which columns a file gets (the view's or every one, the
 * record id first so the file can be imported again by id), their headers and types, each
 * row's cells, and the page loop over export_records (EXPORT_PAGE_SIZE a page, each after
 * the last one's next_cursor until it is null, at most EXPORT_ROW_LIMIT rows, stopped by an
 * AbortSignal).
 * RecordExportButton runs them and writes the file.
 */
import { z } from "zod";
import { writeCsv, type ExportColumn } from "@/lib/spreadsheet/write.ts";
import { writeXlsxFile } from "@/lib/spreadsheet/write-client.ts";
import type { ModuleKey } from "@/modules/registry.ts";
import type { Json } from "@/types/database.types.ts";

/** The most rows one file gets: beyond it the export says so and writes the first ones. */
export const EXPORT_ROW_LIMIT = 100_000;
/** Rows per export_records call (its own maximum). */
export const EXPORT_PAGE_SIZE = 5_000;
/** The first column's header: the record's id, the key of an import in update mode. */
export const ID_HEADER = "ID";

export type ExportCell = string | number | Date | null;

/** What an export reads of a list column (record-config's RecordColumn adds what the screen needs). */
export interface ExportableColumn<Row> {
  key: string;
  label: string;
  /**
   * The cell in an export file when the screen shows something other than the raw value (a
   * label for a code, a number for an amount, a name for an id); never JSX. By default the
   * raw value (a list of tags joined with ", ").
   */
  exportValue?(row: Row): ExportCell;
  /** The cell's type in the file: by default datetime for an `…_at` column, else text. */
  exportType?: ExportColumn["type"];
  /** The key of the column with this amount's currency: an export with this column has that one beside it. */
  currencyColumn?: string;
}

export type ExportKind = "view" | "all";
export type ExportFormat = "xlsx" | "csv";

/** What an export asks export_records for, page after page. */
export interface RecordExportQuery {
  search?: string;
  filters: Json;
  sort: string;
  descending: boolean;
}

/** The list an export is made from. */
export interface RecordExportSource<Row> {
  /** Every column the list has, its title column first. */
  columns: ExportableColumn<Row>[];
  /** What the list shows now: its search, filters (with the page's fixed ones), order and chosen columns. */
  view: RecordExportQuery & { columns: string[] };
  /** Filters that make the list what it is (quotes: the latest revisions): the only ones an export of everything keeps. */
  definingFilters?: Record<string, Json>;
}

export interface RecordExportPlan<Row> {
  query: RecordExportQuery;
  columns: ExportableColumn<Row>[];
}

/**
 * The view: its search, filters, order, the title column and the chosen ones. Everything:
 * every column and every record the user may see (only the defining filters), in the view's order.
 */
export function exportPlan<Row>(source: RecordExportSource<Row>, kind: ExportKind): RecordExportPlan<Row> {
  const { columns: chosen, ...query } = source.view;
  if (kind === "all") {
    return {
      query: { filters: source.definingFilters ?? {}, sort: query.sort, descending: query.descending },
      columns: source.columns,
    };
  }
  const [title, ...others] = source.columns;
  const columns = [title, ...others.filter((column) => chosen.includes(column.key))];
  return { query, columns: withCurrencies(columns, source.columns) };
}

/** An amount's currency column goes right after it when the export does not have it already. */
function withCurrencies<Row>(columns: ExportableColumn<Row>[], all: ExportableColumn<Row>[]): ExportableColumn<Row>[] {
  const result: ExportableColumn<Row>[] = [];
  for (const column of columns) {
    result.push(column);
    const currency = all.find((candidate) => candidate.key === column.currencyColumn);
    if (currency && !columns.includes(currency) && !result.includes(currency)) result.push(currency);
  }
  return result;
}

function exportTypeOf<Row>(column: ExportableColumn<Row>): ExportColumn["type"] {
  return column.exportType ?? (column.key.endsWith("_at") ? "datetime" : "text");
}

/** The file's columns: the id, then each column under the list's own header. */
function exportColumns<Row>(columns: ExportableColumn<Row>[]): ExportColumn[] {
  return [{ header: ID_HEADER, type: "text" }, ...columns.map((column) => ({ header: column.label, type: exportTypeOf(column) }))];
}

/** One row of the file: the id, then each column's cell. */
function exportRow<Row extends { id: string }>(columns: ExportableColumn<Row>[], row: Row): ExportCell[] {
  return [row.id, ...columns.map((column) => exportCell(column, row))];
}

function exportCell<Row>(column: ExportableColumn<Row>, row: Row): ExportCell {
  const value: unknown = column.exportValue ? column.exportValue(row) : (row as Record<string, unknown>)[column.key];
  if (value === null || value === undefined || value === "") return null;
  if (value instanceof Date) return value;
  switch (exportTypeOf(column)) {
    case "number":
    case "money": {
      const number = typeof value === "number" ? value : Number(value);
      return Number.isFinite(number) ? number : textOf(value);
    }
    case "date":
      return calendarDate(textOf(value));
    case "datetime": {
      const instant = new Date(textOf(value));
      return Number.isNaN(instant.getTime()) ? textOf(value) : instant;
    }
    case "text": {
      const text = textOf(value);
      return text === "" ? null : text;
    }
  }
}

function textOf(value: unknown): string {
  if (Array.isArray(value)) return value.map(textOf).join(", ");
  if (typeof value === "object" && value !== null) return JSON.stringify(value);
  return String(value);
}

/** A calendar date ("2026-12-31") as that day's local midnight, so a file written in local time shows that very day. */
function calendarDate(text: string): Date | string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  return match ? new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : text;
}

/** What a file holds: its columns and rows of cells. */
export interface ExportTable {
  columns: ExportColumn[];
  rows: ExportCell[][];
}

/** The fetched rows as the file's table (linked records' names come with the rows). */
export function exportTable<Row extends { id: string }>(columns: ExportableColumn<Row>[], rows: Row[]): ExportTable {
  return { columns: exportColumns(columns), rows: rows.map((row) => exportRow(columns, row)) };
}

/** The table as an Excel file (one sheet named `sheetName`, written in a worker) or a CSV file. */
export async function writeExport(format: ExportFormat, table: ExportTable, sheetName: string): Promise<Blob> {
  return format === "xlsx" ? writeXlsxFile(table.columns, table.rows, sheetName) : writeCsv(table.columns, table.rows);
}

// ---------------------------------------------------------------------------------
// Pages
// ---------------------------------------------------------------------------------

export interface ExportRecordsArgs {
  p_module: ModuleKey;
  p_search?: string;
  p_filters: Json;
  p_sort: string;
  p_descending: boolean;
  /** Where the page starts: the last page's next_cursor as it came (null: the first page). */
  p_cursor: Json | null;
  p_limit: number;
}

/**
 * export_records' answer: a page of whole rows, the total (exact up to the list's cap) and
 * where the next page starts (next_cursor: the server's, opaque here, null after the last).
 */
export function exportPageSchema<Row extends z.ZodType>(row: Row) {
  return z.object({
    success: z.literal(true),
    records: z.array(row),
    total: z.number().int().nonnegative(),
    total_exact: z.boolean(),
    next_cursor: z.json().nullable(),
  });
}

export interface ExportPage<Row> {
  records: Row[];
  total: number;
  total_exact: boolean;
  next_cursor: Json | null;
}

export interface ExportProgress {
  fetched: number;
  /** How many rows the file will have, when known: the total, or the limit when there are more. */
  expected: number | null;
  /** There are more rows than the limit: the file gets the first EXPORT_ROW_LIMIT. */
  capped: boolean;
}

export interface ExportRows<Row> {
  rows: Row[];
  capped: boolean;
}

/**
 * Every row of the query, page after page until next_cursor is null, at most `limit`; a
 * record a later page repeats (the list changed meanwhile) is kept once. Stops with the
 * signal's reason when it aborts, before the next page is asked for.
 */
export async function fetchExportRows<Row extends { id: string }>(
  module: ModuleKey,
  query: RecordExportQuery,
  fetchPage: (args: ExportRecordsArgs) => Promise<ExportPage<Row>>,
  { signal, onProgress, limit = EXPORT_ROW_LIMIT }: { signal: AbortSignal; onProgress?(progress: ExportProgress): void; limit?: number },
): Promise<ExportRows<Row>> {
  const rows: Row[] = [];
  const seen = new Set<string>();
  let cursor: Json | null = null;
  do {
    signal.throwIfAborted();
    const page = await fetchPage({
      p_module: module,
      ...(query.search ? { p_search: query.search } : {}),
      p_filters: query.filters,
      p_sort: query.sort,
      p_descending: query.descending,
      p_cursor: cursor,
      p_limit: Math.min(EXPORT_PAGE_SIZE, limit - rows.length),
    });
    signal.throwIfAborted();
    const before = rows.length;
    for (const record of page.records) {
      if (seen.has(record.id) || rows.length === limit) continue;
      seen.add(record.id);
      rows.push(record);
    }
    if (rows.length === limit && page.next_cursor !== null) return { rows, capped: true };
    const capped = page.total > limit;
    onProgress?.({ fetched: rows.length, expected: capped ? limit : page.total_exact ? page.total : null, capped });
    // A page that adds nothing (empty, or only repeats) ends it, whatever next_cursor says.
    cursor = rows.length === before ? null : page.next_cursor;
  } while (cursor !== null);
  return { rows, capped: false };
}

/** The file's name: the module's title folded to ASCII ("Müşteriler" → "musteriler"), the local date, the format. */
export function exportFileName(title: string, format: ExportFormat, now: Date): string {
  const slug = title
    .replace(/[ıİ]/g, "i")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${slug}-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.${format}`;
}
