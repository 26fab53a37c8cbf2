/** The write worker: an Excel file of 100,000 rows is built here, so the page stays responsive. */
import { expose } from "comlink";
import { writeXlsx } from "./write.ts";

const api = { writeXlsx };
export type WriteWorkerApi = typeof api;

expose(api);
