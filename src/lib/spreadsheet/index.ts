/**
 * Spreadsheets in and out for the import page and the lists' exports. Light to import: the
 * parser (with the XLSX library) runs in a worker, and writing an XLSX loads the library then.
 */
export { importLimits, type ImportLimits } from "./limits.ts";
export { SheetError, type ParsedSheet, type SheetProblem } from "./sheet.ts";
export { parseSpreadsheet } from "./parse-client.ts";
export { excelSerialToIso, foldHeader, parseBoolean, parseTurkishDate, parseTurkishNumber } from "./convert.ts";
export { neutralizeFormula, writeCsv, writeXlsx, type ExportCell, type ExportColumn } from "./write.ts";
