/**
 * Reads an uploaded file into its first table (runs in the parse worker; pure, so tests and
 * the bench call it directly). The kind is told by the first bytes, never by the name: a zip
 * is an XLSX workbook (its entries checked before anything is inflated), other binary is
 * refused, anything else is delimited text: UTF-8 with or without BOM, UTF-16 with BOM (Excel's
 * "Unicode text"), else Windows-1254 (Excel's Turkish CSV export); ";", "," or tab, detected.
 */
import { unzipSync } from "fflate";
import Papa from "papaparse";
import * as XLSX from "@e965/xlsx";
import { excelSerialToIso, foldHeader } from "./convert.ts";
import { importLimits, type ImportLimits } from "./limits.ts";
import { SheetError, type ParsedSheet } from "./sheet.ts";

const startsWith = (bytes: Uint8Array, ...signature: number[]) => signature.every((byte, index) => bytes[index] === byte);

/** Magic numbers of files that are surely not a table: PDF, images, executables, archives, old Office. */
const BINARY_SIGNATURES: number[][] = [
  [0x25, 0x50, 0x44, 0x46], // %PDF
  [0x89, 0x50, 0x4e, 0x47], // PNG
  [0xff, 0xd8, 0xff], // JPEG
  [0x47, 0x49, 0x46, 0x38], // GIF
  [0x4d, 0x5a], // MZ (Windows executables)
  [0x7f, 0x45, 0x4c, 0x46], // ELF
  [0x1f, 0x8b], // gzip
  [0x37, 0x7a, 0xbc, 0xaf], // 7z
  [0x52, 0x61, 0x72, 0x21], // RAR
  [0xd0, 0xcf, 0x11, 0xe0], // OLE2: .xls, .doc
];

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The file's first table, or a SheetError naming why not. `limits` only differ in tests. */
export async function parseSpreadsheetBytes(bytes: Uint8Array, limits: ImportLimits = importLimits): Promise<ParsedSheet> {
  if (bytes.length > limits.maxFileBytes) throw new SheetError("too_large", { limit: limits.maxFileBytes });
  if (bytes.length === 0) throw new SheetError("empty");
  const sha256 = await sha256Hex(bytes);
  if (startsWith(bytes, 0x50, 0x4b, 0x03, 0x04)) return { ...readWorkbook(bytes, limits), sha256 };
  if (BINARY_SIGNATURES.some((signature) => startsWith(bytes, ...signature))) throw new SheetError("binary");
  const { text, encoding } = decodeText(bytes);
  return { ...readDelimited(text, limits), encoding, sha256 };
}

/** The text of a delimited file and the encoding it was written in. */
function decodeText(bytes: Uint8Array): { text: string; encoding: ParsedSheet["encoding"] } {
  if (startsWith(bytes, 0xff, 0xfe)) return { text: new TextDecoder("utf-16le").decode(bytes.subarray(2)), encoding: "utf-16le" };
  const head = bytes.subarray(0, 8192);
  if (head.includes(0)) throw new SheetError("binary");
  const body = startsWith(bytes, 0xef, 0xbb, 0xbf) ? bytes.subarray(3) : bytes;
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(body), encoding: "utf-8" };
  } catch {
    // Not UTF-8: Excel's Turkish CSV. Control characters other than tab and line ends mean it is no text at all.
    const text = new TextDecoder("windows-1254").decode(body);
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(text.slice(0, 65536))) throw new SheetError("bad_encoding");
    return { text, encoding: "windows-1254" };
  }
}

function readDelimited(text: string, limits: ImportLimits): Omit<ParsedSheet, "encoding" | "sha256"> {
  const sample = text.slice(0, 65536);
  const guess = Papa.parse<string[]>(sample, { delimitersToGuess: [";", ",", "\t"], preview: 50, skipEmptyLines: "greedy" });
  const delimiter = ([";", ",", "\t"] as const).find((candidate) => candidate === guess.meta.delimiter) ?? ";";
  const parsed = Papa.parse<string[]>(text, { delimiter, skipEmptyLines: "greedy" });
  if (parsed.errors.some((error) => error.code === "MissingQuotes")) throw new SheetError("not_a_table", { row: (parsed.errors[0].row ?? 0) + 1 });
  return { ...table(parsed.data, limits), delimiter };
}

/**
 * The workbook's first sheet with data. Before SheetJS sees a byte: at most maxZipEntries
 * entries, maxSheets worksheets, maxUncompressedBytes in all and maxCompressionRatio per
 * entry, as the zip's central directory declares them (nothing is inflated to check).
 */
function readWorkbook(bytes: Uint8Array, limits: ImportLimits): Omit<ParsedSheet, "sha256"> {
  let entries = 0;
  let sheets = 0;
  let total = 0;
  try {
    unzipSync(bytes, {
      filter(file) {
        entries += 1;
        total += file.originalSize;
        if (/^xl\/worksheets\/[^/]+\.xml$/.test(file.name)) sheets += 1;
        if (entries > limits.maxZipEntries || total > limits.maxUncompressedBytes) throw new SheetError("zip_bomb");
        if (file.originalSize > 1024 * 1024 && file.originalSize > file.size * limits.maxCompressionRatio) throw new SheetError("zip_bomb");
        return false;
      },
    });
  } catch (error) {
    throw error instanceof SheetError ? error : new SheetError("unreadable");
  }
  if (sheets > limits.maxSheets) throw new SheetError("too_many_sheets", { limit: limits.maxSheets });
  if (sheets === 0) throw new SheetError("unreadable");

  let workbook: XLSX.WorkBook;
  try {
    workbook = XLSX.read(bytes, { type: "array", dense: true, cellNF: true, cellFormula: false, cellHTML: false, cellStyles: false, sheetRows: limits.maxRows + 2 });
  } catch {
    throw new SheetError("unreadable");
  }
  for (const sheetName of workbook.SheetNames) {
    const rows = sheetRows(workbook.Sheets[sheetName]);
    if (rows.some((row) => row.some((cell) => cell !== ""))) return { ...table(rows, limits), encoding: "xlsx", sheetName };
  }
  throw new SheetError("empty");
}

/**
 * A sheet's cells as text, as the import reads text files: numbers with a decimal comma and
 * no grouping ("1234,5"), dates as ISO ("2026-12-31", with a time when it has one), true and
 * false as "true"/"false", formulas as their last computed value, errors as empty.
 */
function sheetRows(sheet: XLSX.WorkSheet): string[][] {
  const data = (sheet["!data"] ?? []) as (XLSX.CellObject | undefined)[][];
  return Array.from(data, (row) => Array.from(row ?? [], (cell) => cellText(cell)));
}

function cellText(cell: XLSX.CellObject | undefined): string {
  if (!cell || cell.v === undefined || cell.v === null) return "";
  switch (cell.t) {
    case "n": {
      const value = cell.v as number;
      if (cell.z !== undefined && XLSX.SSF.is_date(cell.z)) return excelSerialToIso(value) ?? String(value).replace(".", ",");
      return String(value).replace(".", ",");
    }
    case "d":
      return cell.v instanceof Date ? cell.v.toISOString().slice(0, 10) : String(cell.v);
    case "b":
      return cell.v ? "true" : "false";
    case "e":
      return "";
    default:
      return String(cell.v);
  }
}

/** Header row and data rows, checked against the limits; rows padded or cut to the header's width, empty rows dropped. */
function table(raw: string[][], limits: ImportLimits): Omit<ParsedSheet, "encoding" | "sha256"> {
  const nonEmpty = raw.filter((row) => row.some((cell) => cell !== undefined && String(cell).trim() !== ""));
  if (nonEmpty.length === 0) throw new SheetError("empty");
  const [headerRow, ...dataRows] = nonEmpty;
  let width = headerRow.length;
  while (width > 0 && String(headerRow[width - 1] ?? "").trim() === "") width -= 1;
  if (width > limits.maxColumns) throw new SheetError("too_many_columns", { limit: limits.maxColumns, columns: width });
  if (dataRows.length === 0) throw new SheetError("empty");
  if (dataRows.length > limits.maxRows) throw new SheetError("too_many_rows", { limit: limits.maxRows });
  const headers = Array.from({ length: width }, (_, index) => String(headerRow[index] ?? "").trim() || `#${index + 1}`);
  const seen = new Map<string, string>();
  for (const header of headers) {
    const folded = foldHeader(header) || header;
    if (seen.has(folded)) throw new SheetError("duplicate_headers", { headers: [seen.get(folded), header] });
    seen.set(folded, header);
  }
  const rows = dataRows.map((row, rowIndex) =>
    Array.from({ length: width }, (_, column) => {
      const cell = String(row[column] ?? "");
      if (cell.length > limits.maxCellChars) throw new SheetError("cell_too_long", { row: rowIndex + 2, column: headers[column] });
      return cell.trim();
    }),
  );
  for (const header of headers) {
    if (header.length > limits.maxCellChars) throw new SheetError("cell_too_long", { row: 1, column: header.slice(0, 40) });
  }
  return { headers, rows };
}
