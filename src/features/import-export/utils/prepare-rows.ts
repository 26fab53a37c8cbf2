/**
 * A file's rows as the import RPCs take them: each mapped cell read as its field's type
 * (Turkish numbers and dates, yes/no words, an option's key or label, tags and options split on , and ;),
 * empty cells left out (an import never clears a field), what could not be read kept as a
 * cell error of that field, and rows repeating another row's match key value marked.
 */
import {
  FORMULA_START,
  foldHeader,
  parseBoolean,
  parseTurkishDate,
  parseTurkishNumber,
  type ParsedSheet,
} from "@/lib/spreadsheet/index.ts";
import { fromZonedInputValue } from "@/lib/zoned-time.ts";
import { findField, type EnumOption, type ImportField, type ImportKindDefinition, type MatchKey } from "../kinds.ts";
import type { Mapping } from "./mapping.ts";

/** Problems the browser finds in a cell, beside the server's field codes. */
export const cellErrorCodes = ["invalid_number", "invalid_date", "invalid_datetime", "invalid_boolean", "invalid_option"] as const;
export type CellErrorCode = (typeof cellErrorCodes)[number];

export type CellValue = string | number | boolean | string[];
export type CellResult = { value: CellValue } | { error: CellErrorCode } | null;

export interface ConvertContext {
  /** The organization's time zone: a date and time without an offset is read on its clock. */
  timeZone: string;
  /** An option's label in the interface's language. */
  optionLabel(option: EnumOption): string;
}

export interface PreparedRow {
  /** The row's number as a spreadsheet shows it (the header is row 1): what the server echoes. */
  row: number;
  /** Its index in the file's data rows. */
  index: number;
  values: Record<string, CellValue>;
  /** Cells the browser could not read, by field key. */
  errors: Record<string, CellErrorCode>;
  /** An earlier row of the file has the same match key value: its row number. */
  duplicateOf?: number;
}

/** The row number a spreadsheet shows for a data row (its header is row 1). */
export const rowNumber = (index: number) => index + 2;

/** Whether the browser already knows the row cannot be imported. */
export function hasLocalProblem(row: PreparedRow): boolean {
  return row.duplicateOf !== undefined || Object.keys(row.errors).length > 0;
}

// A CSV export makes formula-like cells inert with a leading apostrophe (writeCsv, FORMULA_START); read back, the apostrophe goes.
const CURRENCY_MARK = /^(?:₺|TL|TRY|\$|USD|€|EUR|£|GBP)\s*|\s*(?:₺|TL|TRY|\$|USD|€|EUR|£|GBP)$/gi;
const EXCEL_SERIAL = /^\d{1,6}(?:\.\d+)?$/;
const EXPLICIT_INSTANT = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)$/i;
const DATE_AND_TIME = /^(.+?)[T ]+(\d{1,2})[:.](\d{2})(?:[:.]\d{2}(?:\.\d+)?)?$/;

const pad = (value: number) => String(value).padStart(2, "0");

/** The cell's text as the user meant it: trimmed, a CSV's inert-formula apostrophe removed. */
export function cellText(raw: string | undefined): string {
  const text = (raw ?? "").trim();
  return text.startsWith("'") && FORMULA_START.test(text.slice(1)) ? text.slice(1).trim() : text;
}

/** A date cell: Turkish, ISO or an Excel serial, also with a midnight time (as spreadsheets write dates). */
function readDate(text: string): string | null {
  const iso = parseTurkishDate(text);
  return iso !== null && (iso.length === 10 || iso.endsWith("T00:00:00")) ? iso.slice(0, 10) : null;
}

/** A date and time cell as an instant: one with an offset as written, else on the organization's clock. */
function readDateTime(text: string, timeZone: string): string | null {
  if (EXPLICIT_INSTANT.test(text)) {
    const instant = new Date(text.replace(" ", "T"));
    return Number.isNaN(instant.getTime()) ? null : instant.toISOString();
  }
  let date: string | null;
  let minutes = 0;
  if (EXCEL_SERIAL.test(text)) {
    // An Excel serial: whole days, and the time of day as the fraction.
    const serial = Number(text);
    date = parseTurkishDate(String(Math.floor(serial)));
    minutes = Math.round((serial - Math.floor(serial)) * 24 * 60);
  } else {
    const match = DATE_AND_TIME.exec(text);
    if (match) {
      const [hour, minute] = [Number(match[2]), Number(match[3])];
      if (hour > 23 || minute > 59) return null;
      date = parseTurkishDate(match[1].trim());
      minutes = hour * 60 + minute;
    } else {
      date = parseTurkishDate(text);
    }
  }
  if (date === null) return null;
  if (minutes >= 24 * 60) minutes = 24 * 60 - 1;
  return fromZonedInputValue(`${date}T${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`, timeZone);
}

/** An option named by its key, its label or one of its aliases (folded). */
function readOption(field: ImportField, text: string, optionLabel: ConvertContext["optionLabel"]): string | null {
  const folded = foldHeader(text);
  const option = (field.options ?? []).find((candidate) =>
    [candidate.key, optionLabel(candidate), ...candidate.aliases].some((name) => foldHeader(name) === folded),
  );
  return option?.key ?? null;
}

function readBoolean(field: ImportField, text: string): boolean | null {
  const folded = foldHeader(text);
  if (field.booleanWords?.yes.some((word) => foldHeader(word) === folded)) return true;
  if (field.booleanWords?.no.some((word) => foldHeader(word) === folded)) return false;
  return parseBoolean(text);
}

/** Tags of a cell: split on , and ;, trimmed, each once. */
export function splitTags(text: string): string[] {
  return [...new Set(text.split(/[,;]/).map((tag) => tag.trim()).filter((tag) => tag !== ""))];
}

/** One cell read as its field's type: null when empty (nothing is sent), else the value or why it cannot be read. */
export function convertCell(field: ImportField, raw: string | undefined, convert: ConvertContext): CellResult {
  const text = cellText(raw);
  if (text === "") return null;
  switch (field.type) {
    case "text":
    case "reference":
      return { value: text };
    case "number":
    case "money": {
      const number = parseTurkishNumber(field.type === "money" ? text.replace(CURRENCY_MARK, "") : text);
      return number === null || !Number.isFinite(number) ? { error: "invalid_number" } : { value: number };
    }
    case "date": {
      const date = readDate(text);
      return date === null ? { error: "invalid_date" } : { value: date };
    }
    case "datetime": {
      const instant = readDateTime(text, convert.timeZone);
      return instant === null ? { error: "invalid_datetime" } : { value: instant };
    }
    case "boolean": {
      const value = readBoolean(field, text);
      return value === null ? { error: "invalid_boolean" } : { value };
    }
    case "enum": {
      const key = readOption(field, text, convert.optionLabel);
      if (key !== null) return { value: key };
      return field.openOptions ? { value: text } : { error: "invalid_option" };
    }
    case "tags": {
      const tags = splitTags(text);
      return tags.length === 0 ? null : { value: tags };
    }
    case "options": {
      const keys = splitTags(text).map((part) => readOption(field, part, convert.optionLabel));
      if (keys.length === 0) return null;
      return keys.some((key) => key === null) ? { error: "invalid_option" } : { value: [...new Set(keys as string[])] };
    }
  }
}

/** A full name's parts: the last word is the surname, the words before it the first name. */
export function splitFullName(text: string): { first_name: string; last_name?: string } {
  const words = text.split(/\s+/).filter((word) => word !== "");
  if (words.length <= 1) return { first_name: words[0] ?? "" };
  return { first_name: words.slice(0, -1).join(" "), last_name: words[words.length - 1] };
}

/** One data row's values and cell errors under the mapping. */
export function prepareRow(
  cells: readonly string[],
  index: number,
  columns: readonly { column: number; field: ImportField }[],
  convert: ConvertContext,
): PreparedRow {
  const values: Record<string, CellValue> = {};
  const errors: Record<string, CellErrorCode> = {};
  for (const { column, field } of columns) {
    const result = convertCell(field, cells[column], convert);
    if (result === null) continue;
    if ("error" in result) {
      errors[field.key] = result.error;
    } else if (field.writes && typeof result.value === "string") {
      Object.assign(values, splitFullName(result.value));
    } else {
      values[field.key] = result.value;
    }
  }
  return { row: rowNumber(index), index, values, errors };
}

/** The mapped columns of the file: each column's index and field. */
export function mappedColumns(headers: readonly string[], mapping: Mapping, definition: ImportKindDefinition) {
  return headers.flatMap((header, column) => {
    const field = Object.hasOwn(mapping, header) ? findField(definition, mapping[header]) : undefined;
    return field ? [{ column, field }] : [];
  });
}

// private.fold_search's letters: İ I ı → i, Ş → s, Ğ → g, Ü → u, Ö → o, Ç → c, then lower case.
const FOLD_FROM = "İIıŞşĞğÜüÖöÇç";
const FOLD_TO = "iiiSsGgUuOoCc";

/** A name or title as the server compares it: trimmed, then private.fold_search. */
export function foldName(text: string): string {
  const translated = [...text.trim()].map((char) => {
    const at = FOLD_FROM.indexOf(char);
    return at < 0 ? char : FOLD_TO[at];
  });
  return translated.join("").toLowerCase();
}

/** The value a row is matched on, normalised as the server compares it; null when the row has none. */
export function matchValue(definition: ImportKindDefinition, key: MatchKey, values: PreparedRow["values"]): string | null {
  const text = (name: string) => (typeof values[name] === "string" ? (values[name] as string).trim() : "");
  let value: string;
  switch (key) {
    case "id":
    case "email":
      value = text(key).toLowerCase();
      break;
    case "external_id":
      value = text(key);
      break;
    case "tax_number":
      value = text(key).replace(/\s/g, "");
      break;
    case "name":
      // A contact's name: first and last name joined by a space (private.import_key_value).
      value = definition.kind === "contacts" ? foldName([text("first_name"), text("last_name")].filter(Boolean).join(" ")) : foldName(text("name"));
      break;
    case "title":
      value = foldName(text("title"));
      break;
  }
  return value === "" ? null : value;
}

/** Marks each row whose match key value an earlier row of the file already has (the earlier row stays). */
export function markDuplicates(rows: PreparedRow[], definition: ImportKindDefinition, key: MatchKey | null): PreparedRow[] {
  if (key === null) return rows;
  const firstRow = new Map<string, number>();
  return rows.map((row) => {
    const value = matchValue(definition, key, row.values);
    if (value === null) return row;
    const first = firstRow.get(value);
    if (first === undefined) {
      firstRow.set(value, row.row);
      return row;
    }
    return { ...row, duplicateOf: first };
  });
}

/** Every data row of the file, read under the mapping. */
export function prepareRows(sheet: ParsedSheet, definition: ImportKindDefinition, mapping: Mapping, convert: ConvertContext): PreparedRow[] {
  const columns = mappedColumns(sheet.headers, mapping, definition);
  return sheet.rows.map((cells, index) => prepareRow(cells, index, columns, convert));
}
