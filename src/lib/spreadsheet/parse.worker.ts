/** The parse worker: files are read here, so a 100,000-row file never stalls the page. */
import { expose } from "comlink";
import { parseSpreadsheetBytes } from "./parse.ts";
import { SheetError, type ParsedSheet, type SheetProblem } from "./sheet.ts";

export type ParseAnswer = { ok: true; sheet: ParsedSheet } | { ok: false; problem: SheetProblem; details: Record<string, unknown> };

const api = {
  /** The file's first table, or the reason it cannot be read (errors do not cross to the page as classes). */
  async parse(bytes: Uint8Array): Promise<ParseAnswer> {
    try {
      return { ok: true, sheet: await parseSpreadsheetBytes(bytes) };
    } catch (error) {
      return error instanceof SheetError
        ? { ok: false, problem: error.problem, details: error.details }
        : { ok: false, problem: "unreadable", details: {} };
    }
  },
};
export type ParseWorkerApi = typeof api;

expose(api);
