/**
 * Files out: CSV for Turkish Excel (UTF-8 with BOM, ";", CRLF, RFC 4180 quotes, Turkish
 * decimals and dates) and XLSX (real numbers and dates, text always a string cell). A text
 * cell that a spreadsheet would read as a formula is made inert (OWASP ASVS 1.2.10).
 */
import type { CellObject, WorkSheet } from "@e965/xlsx";

export interface ExportColumn {
  header: string;
  type: "text" | "number" | "money" | "date" | "datetime";
}

export type ExportCell = string | number | Date | null;

/**
 * What a spreadsheet may read as the start of a formula: = + - @ in their ASCII, full-width
 * (＝ ＋ － ＠) and small (﹦ ﹢ ﹣ ﹫) forms, also after leading white space of any kind (spaces,
 * tabs, no-break and other Unicode spaces, zero-width characters), which Excel and LibreOffice
 * skip; or a tab, CR, LF or NUL first.
 */
// eslint-disable-next-line no-control-regex
export const FORMULA_START = /^(?:[\s\u180E\u200B-\u200D\u2060]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20\uFE66\uFE62\uFE63\uFE6B]|[\t\r\n\u0000])/;

/**
 * A phone number as the app shows it (+90 224 212 49 33, +1 (212) 555-0123): a leading +, then
 * only digits (7 to 15 of them, E.164's most), spaces, dots, hyphens, slashes and parentheses.
 * It starts like a formula but cannot be one that does harm (no letters: no function, cell
 * reference or DDE call), so it keeps its text, without the guard's apostrophe.
 */
const PHONE_TEXT = /^\+[0-9 ()./-]+$/;

export function isPhoneText(text: string): boolean {
  if (!PHONE_TEXT.test(text)) return false;
  const digits = text.replace(/[^0-9]/g, "").length;
  return digits >= 7 && digits <= 15;
}

/** Text a spreadsheet would run (FORMULA_START) gets a leading ' so no spreadsheet runs it; a phone number does not. */
export function neutralizeFormula(text: string): string {
  return FORMULA_START.test(text) && !isPhoneText(text) ? `'${text}` : text;
}

const pad = (value: number) => String(value).padStart(2, "0");
const moneyFormat = new Intl.NumberFormat("tr-TR", { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: true });
const numberFormat = new Intl.NumberFormat("tr-TR", { maximumFractionDigits: 6, useGrouping: false });

/** A cell as the CSV's text: Turkish numbers and dates, text made inert. */
function csvText(column: ExportColumn, cell: ExportCell): string {
  if (cell === null) return "";
  if (cell instanceof Date) {
    const date = `${pad(cell.getDate())}.${pad(cell.getMonth() + 1)}.${cell.getFullYear()}`;
    return column.type === "datetime" ? `${date} ${pad(cell.getHours())}:${pad(cell.getMinutes())}` : date;
  }
  if (typeof cell === "number") return (column.type === "money" ? moneyFormat : numberFormat).format(cell);
  return neutralizeFormula(cell);
}

function quote(text: string): string {
  return /[";\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The table as a CSV file Turkish Excel opens as it is. */
export function writeCsv(columns: ExportColumn[], rows: ExportCell[][]): Blob {
  const lines = [columns.map((column) => quote(neutralizeFormula(column.header))).join(";")];
  for (const row of rows) lines.push(columns.map((column, index) => quote(csvText(column, row[index] ?? null))).join(";"));
  return new Blob(["\uFEFF", lines.join("\r\n"), "\r\n"], { type: "text/csv;charset=utf-8" });
}

/** A local date and time as Excel's serial number (days since 1899-12-30), without time-zone shifts. */
function excelSerial(date: Date): number {
  const utc = Date.UTC(date.getFullYear(), date.getMonth(), date.getDate(), date.getHours(), date.getMinutes(), date.getSeconds());
  return utc / 86_400_000 + 25_569;
}

const XLSX_FORMATS: Partial<Record<ExportColumn["type"], string>> = {
  money: "#,##0.00",
  date: "dd\\.mm\\.yyyy",
  datetime: "dd\\.mm\\.yyyy hh:mm",
};

/**
 * The table as an Excel workbook of one sheet (the XLSX library is loaded now, not with the
 * page): numbers and amounts numeric, dates real dates, every text a string cell (never a
 * formula, whatever it starts with).
 */
export async function writeXlsx(columns: ExportColumn[], rows: ExportCell[][], sheetName: string): Promise<Blob> {
  const XLSX = await import("@e965/xlsx");
  const header = columns.map((column): CellObject => ({ t: "s", v: column.header }));
  const body = rows.map((row) =>
    columns.map((column, index): CellObject | undefined => {
      const cell = row[index] ?? null;
      if (cell === null) return undefined;
      if (cell instanceof Date) return { t: "n", v: excelSerial(cell), z: XLSX_FORMATS[column.type === "datetime" ? "datetime" : "date"] };
      if (typeof cell === "number") return { t: "n", v: cell, z: XLSX_FORMATS[column.type] };
      return { t: "s", v: cell };
    }),
  );
  const sheet: WorkSheet = {
    "!data": [header, ...body] as CellObject[][],
    "!ref": XLSX.utils.encode_range({ s: { r: 0, c: 0 }, e: { r: rows.length, c: Math.max(columns.length - 1, 0) } }),
    "!cols": columns.map((column) => ({ wch: Math.min(Math.max(column.header.length + 2, column.type === "text" ? 18 : 12), 50) })),
  };
  const workbook = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(workbook, sheet, safeSheetName(sheetName));
  const bytes = XLSX.write(workbook, { type: "array", bookType: "xlsx", compression: true }) as ArrayBuffer;
  return new Blob([bytes], { type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" });
}

/** Excel's sheet names: at most 31 characters, none of : \ / ? * [ ]. */
function safeSheetName(name: string): string {
  return name.replace(/[:\\/?*[\]]/g, " ").trim().slice(0, 31) || "Sheet1";
}
