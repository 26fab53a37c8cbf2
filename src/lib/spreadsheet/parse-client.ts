/** The page's side of the parse worker: one worker per file, ended when the file is read. */
import { transfer, wrap } from "comlink";
import { importLimits } from "./limits.ts";
import type { ParseWorkerApi } from "./parse.worker.ts";
import { SheetError, type ParsedSheet } from "./sheet.ts";

/** The file's first table, read in a web worker; a SheetError says why a file cannot be read. */
export async function parseSpreadsheet(file: File): Promise<ParsedSheet> {
  if (file.size > importLimits.maxFileBytes) throw new SheetError("too_large", { limit: importLimits.maxFileBytes });
  if (file.size === 0) throw new SheetError("empty");
  const bytes = new Uint8Array(await file.arrayBuffer());
  const worker = new Worker(new URL("./parse.worker.ts", import.meta.url), { type: "module" });
  try {
    const answer = await wrap<ParseWorkerApi>(worker).parse(transfer(bytes, [bytes.buffer]));
    if (!answer.ok) throw new SheetError(answer.problem, answer.details);
    return answer.sheet;
  } finally {
    worker.terminate();
  }
}
