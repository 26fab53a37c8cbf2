/** What a parsed file is, and why a file could not be read; shared by the worker and the page. */

export type SheetProblem =
  | "too_large"
  | "not_a_table"
  | "binary"
  | "zip_bomb"
  | "too_many_sheets"
  | "cell_too_long"
  | "too_many_rows"
  | "too_many_columns"
  | "duplicate_headers"
  | "empty"
  | "bad_encoding"
  | "unreadable";

/** A file's first table: trimmed header names and its data rows (every row as long as the headers, cells as text). */
export interface ParsedSheet {
  headers: string[];
  rows: string[][];
  encoding: "utf-8" | "utf-16le" | "windows-1254" | "xlsx";
  delimiter?: ";" | "," | "\t";
  sheetName?: string;
  /** SHA-256 of the file's bytes (hex): the same file is recognised when an import resumes. */
  sha256: string;
}

/** A file the import cannot take, with the limit or place that refused it (e.g. {row, column} or {limit}). */
export class SheetError extends Error {
  override name = "SheetError";
  constructor(
    readonly problem: SheetProblem,
    readonly details: Record<string, unknown> = {},
  ) {
    super(problem);
  }
}
