/**
 * What became of each row: the browser's own findings (unreadable cells, a repeated match
 * key) before the server's answer, counted for the preview and the result, ordered errors
 * first for the preview's table, put in words per column for the error file, and the error
 * file's table itself: the original columns and a last column with each row's reasons.
 */
import { foldHeader, type ExportColumn, type ParsedSheet } from "@/lib/spreadsheet/index.ts";
import { findField, writtenKeys, type ImportKindDefinition } from "../kinds.ts";
import type { RowResult, RowStatus } from "../api/imports.ts";
import type { Mapping } from "./mapping.ts";
import type { PreparedRow } from "./prepare-rows.ts";

export interface RowOutcome {
  status: RowStatus;
  /** Why a row was skipped or failed as a whole (exists, not_found, ambiguous_match, duplicate_in_file). */
  reason?: string;
  /** duplicate_in_file: the earlier row with the same match key value. */
  duplicateOf?: number;
  /** Field problems by value key: the browser's, or the server's codes. */
  errors: Record<string, string>;
}

/** A row's outcome: the browser's findings first (such a row is never sent), else the server's answer if there is one. */
export function outcomeOf(row: PreparedRow, result: RowResult | undefined): RowOutcome | undefined {
  if (row.duplicateOf !== undefined) {
    return { status: "failed", reason: "duplicate_in_file", duplicateOf: row.duplicateOf, errors: row.errors };
  }
  if (Object.keys(row.errors).length > 0) return { status: "failed", errors: row.errors };
  if (!result) return undefined;
  return { status: result.status, reason: result.reason ?? undefined, errors: result.errors ?? {} };
}

export type OutcomeCounts = Record<RowStatus, number>;

export function countOutcomes(outcomes: Iterable<RowOutcome | undefined>): OutcomeCounts {
  const counts: OutcomeCounts = { created: 0, updated: 0, unchanged: 0, skipped: 0, failed: 0 };
  for (const outcome of outcomes) if (outcome) counts[outcome.status] += 1;
  return counts;
}

/** The rows' indexes with the failed ones first, each group in file order. */
export function failedFirst(outcomes: readonly (RowOutcome | undefined)[]): number[] {
  const failed: number[] = [];
  const others: number[] = [];
  outcomes.forEach((outcome, index) => (outcome?.status === "failed" ? failed : others).push(index));
  return [...failed, ...others];
}

// Value keys the server may name by their column (owner_id for owner, emails for email, …).
const serverKeyFields: Readonly<Record<string, string>> = {
  owner_id: "owner",
  customer_id: "customer",
  contact_id: "contact",
  deal_id: "deal",
  emails: "email",
  phones: "phone",
};

/** The file column a field problem belongs to (by value key, or the field that writes it); undefined when no column is mapped to it. */
export function columnOfError(definition: ImportKindDefinition, mapping: Mapping): (key: string) => string | undefined {
  const columns = new Map<string, string>();
  for (const [header, fieldKey] of Object.entries(mapping)) {
    const field = findField(definition, fieldKey);
    if (!field) continue;
    for (const key of [field.key, ...writtenKeys(field)]) if (!columns.has(key)) columns.set(key, header);
  }
  return (key) => columns.get(key) ?? columns.get(serverKeyFields[key] ?? "");
}

export interface OutcomeWords {
  /** The words for a whole-row reason (exists, not_found, …). */
  reason(reason: string, duplicateOf: number | undefined): string;
  /** The words for a field problem's code. */
  cellError(code: string): string;
  /** A field's name when no column is mapped to it (the server named a value the file does not have). */
  fieldName(key: string): string;
}

/** A failed or skipped row's reasons in words: "E-posta: Geçerli bir e-posta adresi girin.; …". */
export function describeOutcome(outcome: RowOutcome, columnOf: (key: string) => string | undefined, words: OutcomeWords): string {
  const parts: string[] = [];
  if (outcome.reason) parts.push(words.reason(outcome.reason, outcome.duplicateOf));
  for (const [key, code] of Object.entries(outcome.errors)) {
    parts.push(`${columnOf(key) ?? words.fieldName(key)}: ${words.cellError(code)}`);
  }
  return parts.join("; ");
}

export interface FailedRow {
  index: number;
  reasons: string;
}

export interface FailedRowsTable {
  columns: ExportColumn[];
  rows: string[][];
}

/**
 * The error file: the file's own columns (but an error column of an earlier error file, which
 * this one replaces) and `errorHeader` last with each row's reasons, in file order. Cells are
 * written as text, exactly as they were, so the file goes back in once fixed.
 */
export function failedRowsTable(sheet: Pick<ParsedSheet, "headers" | "rows">, failed: readonly FailedRow[], errorHeader: string): FailedRowsTable {
  const errorFolded = foldHeader(errorHeader);
  const kept = sheet.headers.flatMap((header, column) => (foldHeader(header) === errorFolded ? [] : [column]));
  const columns: ExportColumn[] = [...kept.map((column) => ({ header: sheet.headers[column], type: "text" as const })), { header: errorHeader, type: "text" }];
  const rows = [...failed]
    .sort((a, b) => a.index - b.index)
    .map(({ index, reasons }) => [...kept.map((column) => sheet.rows[index]?.[column] ?? ""), reasons]);
  return { columns, rows };
}

/** The error file's name: the original's without its ending, the suffix, the format ("musteriler.csv" → "musteriler-hatalar.csv"). */
export function failedRowsFileName(fileName: string, suffix: string, format: "csv" | "xlsx"): string {
  const dot = fileName.lastIndexOf(".");
  const base = dot > 0 ? fileName.slice(0, dot) : fileName;
  return `${base}-${suffix}.${format}`;
}
