/** The page's side of the write worker: one worker per file, ended when the file is written. */
import { wrap } from "comlink";
import type { ExportCell, ExportColumn } from "./write.ts";
import type { WriteWorkerApi } from "./write.worker.ts";

/**
 * The table as an Excel workbook of one sheet (see writeXlsx), built in a web worker: writing
 * 100,000 rows on the page's thread froze it for about 8 seconds. Dates and the Blob cross
 * the worker's border as they are (structured clone).
 */
export async function writeXlsxFile(columns: ExportColumn[], rows: ExportCell[][], sheetName: string): Promise<Blob> {
  const worker = new Worker(new URL("./write.worker.ts", import.meta.url), { type: "module" });
  try {
    return await wrap<WriteWorkerApi>(worker).writeXlsx(columns, rows, sheetName);
  } finally {
    worker.terminate();
  }
}
