/**
 * Spreadsheets in and out for the import page and the lists' exports. Light to import: the
 * parser and the XLSX writer (each with the XLSX library) run in workers of their own.
 */
export { importLimits, type ImportLimits } from "./limits.ts";
export { SheetError, type ParsedSheet, type SheetProblem } from "./sheet.ts";
export { parseSpreadsheet } from "./parse-client.ts";
export { excelSerialToIso, foldHeader, parseBoolean, parseTurkishDate, parseTurkishNumber } from "./convert.ts";
export { FORMULA_START, neutralizeFormula, writeCsv, type ExportCell, type ExportColumn } from "./write.ts";
export { writeXlsxFile } from "./write-client.ts";
