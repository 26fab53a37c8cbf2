/**
 * Scenarios 1 and 2 of `npm run faults`: `kill -9` of `npm start` (its whole process group:
 * the stack and its edge runtime) at a random moment of an import of customers, then of a
 * quote's repeated saves, round after round on the same data folder (PGlite) or database
 * (PostgreSQL). After each kill the product must start again on it, and show exactly what
 * was committed: each import batch wholly applied with its recorded result, or not at all;
 * the import's record agreeing with its rows; the import finished by sending the file
 * again; the quote exactly one of the versions sent (its lines, header and stored totals),
 * never an acknowledged save lost.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { BATCHES_IN_FLIGHT, runBatches } from "../../src/features/import-export/utils/run-batches.ts";
import { startProduct, type ProductProcess } from "../stack/product-process.ts";
import { testKeys } from "../../tests/support/keys.ts";
import { freePort } from "../stack/free-port.ts";
import { createTestDatabase } from "../stack/test-database.ts";
import { rpcSuccess, signedInClient, type CrmClient } from "../../tests/support/clients.ts";
import { undoLater } from "./cleanup.ts";
import type { Json } from "../../src/types/database.types.ts";

/** An import round: 16 batches of 250 customers, two on their way at once as the page sends them. */
const batchRows = 250;
const batchCount = 16;

export interface ImportRound {
  /** When the kill came, from the first batch sent. */
  killAtMs: number;
  /** Batches answered before the kill, and found applied after it. */
  acknowledged: number;
  applied: number;
  problems: string[];
}

export interface QuoteRound {
  killAtMs: number;
  /** Saves answered before the kill. */
  saves: number;
  /** Which version the quote shows after the restart: the last acknowledged or the one on its way. */
  shown: "acknowledged" | "in flight" | "neither";
  lines: number;
  problems: string[];
}

export interface KillReport {
  backend: "PGlite" | "PostgreSQL";
  /** Seconds each start after a kill took. */
  restarts: number[];
  imports: ImportRound[];
  quotes: QuoteRound[];
  /** What ended the rounds early (the product did not start again, an unexpected error). */
  problems: string[];
}

/** What get_import says of an import. */
type ImportState = { import: { batches: number[]; created: number; status: string } };
/** A batch's answer (run_import_batch), or its recorded one again (replayed). */
type BatchAnswer = { created: number; replayed: boolean; results: { id?: string }[] };
type Totals = Record<string, string>;
type QuoteDetails = {
  quote: { notes: string; updated_at: string };
  items: { description: string; quantity: string; unit_price: string }[];
  totals: Totals;
  revisions: { id: string; grand_total: string }[];
};

interface QuoteVersion {
  header: Record<string, unknown>;
  items: { description: string; quantity: string; unit: string; unit_price: string; vat_rate: number }[];
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function killRounds(backend: KillReport["backend"], rounds: number, random: () => number, log: (line: string) => void): Promise<KillReport> {
  const report: KillReport = { backend, restarts: [], imports: [], quotes: [], problems: [] };
  const folder = mkdtempSync(`${tmpdir()}/crm-faults-`);
  const removeFolder = undoLater(() => rmSync(folder, { recursive: true, force: true }));
  const database = backend === "PostgreSQL" ? await createTestDatabase({ prefix: "crm_faults" }) : null;
  const dropDatabase = undoLater(async () => database?.drop());
  const port = await freePort();
  const start = () =>
    startProduct({ port, keys: testKeys, storageDir: `${folder}/storage`, quiet: true, ...(database ? { databaseUrl: database.url } : { dataDir: `${folder}/pglite` }) });
  let product: ProductProcess | null = null;
  const stopProduct = undoLater(async () => product?.stop());
  /** kill -9, then a start on the same data: it must open (PGlite recovers its files). */
  const killAndRestart = async () => {
    await product!.kill();
    product = null;
    const started = performance.now();
    product = await start();
    report.restarts.push((performance.now() - started) / 1000);
  };
  const runId = Math.floor(random() * 36 ** 5).toString(36);
  const quote = { id: "", updatedAt: "", version: 0, customerId: "" };
  try {
    product = await start();
    for (let round = 1; round <= rounds; round += 1) {
      const marker = `ariza${runId}r${round}x`;
      report.imports.push(await importRound(product.url, marker, random, killAndRestart));
      log(`${backend} round ${round}: import ${JSON.stringify(report.imports.at(-1))}`);
      report.quotes.push(await quoteRound(product.url, quote, random, killAndRestart));
      log(`${backend} round ${round}: quote ${JSON.stringify(report.quotes.at(-1))}`);
    }
  } catch (error) {
    report.problems.push((error as Error).message.split("\n")[0]);
    if (product?.stderr()) log(`${backend}: the product's last log lines:\n${product.stderr().slice(-2_000)}`);
  } finally {
    await stopProduct();
    await dropDatabase();
    await removeFolder();
  }
  return report;
}

/** The rows of one batch: a marker unique to the round in every name and external id. */
function batchRowsOf(marker: string, batch: number) {
  return Array.from({ length: batchRows }, (_, index) => ({
    row: batch * batchRows + index + 2,
    values: { name: `Arıza ${marker} ${batch}-${index}`, external_id: `${marker}-${batch}-${index}`, kind: "company", status: "lead", city: "İzmir" },
  }));
}

/** Sends batches as the import page does (two on their way) until they are done or the run is stopped. */
async function sendBatches(client: CrmClient, importId: string, marker: string, numbers: number[], signal: AbortSignal,
  onAnswer: (batch: number, answer: BatchAnswer) => void) {
  await runBatches({
    batches: numbers.map((number) => ({ number, start: number * batchRows, end: (number + 1) * batchRows })),
    send: async (batch) => rpcSuccess<BatchAnswer>(client, "run_import_batch", { p_import_id: importId, p_batch: batch.number, p_rows: batchRowsOf(marker, batch.number) }),
    onAnswer: (batch, answer) => onAnswer(batch.number, answer),
    signal,
    isLostConnection: () => false,
    waitsForPrevious: (error) => (error as { code?: string }).code === "batch_out_of_order",
    inFlight: BATCHES_IN_FLIGHT,
  });
}

/** One import, killed while batches are on their way; checked after the restart (on the same port), then finished. */
async function importRound(url: string, marker: string, random: () => number, killAndRestart: () => Promise<void>): Promise<ImportRound> {
  const problems: string[] = [];
  const { client } = await signedInClient(url, "admin@demo.test");
  const total = batchRows * batchCount;
  const started = await rpcSuccess<{ import: { id: string } }>(client, "start_import", {
    p_kind: "customers", p_file_name: `${marker}.csv`, p_file_size: total * 80, p_file_hash: createHash("sha256").update(marker).digest("hex"),
    p_mode: "create", p_match_key: null, p_total_rows: total, p_mapping: {},
  });
  const importId = started.import.id;

  // The kill: once a random number of batches is answered, within the next batch's time
  // (two are on their way then). Once a batch fails the page sends no more.
  const killAfter = 1 + Math.floor(random() * (batchCount - 4));
  const sendStarted = performance.now();
  let acknowledged = 0;
  let killAtMs = 0;
  let killing: Promise<void> | null = null;
  const run = sendBatches(client, importId, marker, Array.from({ length: batchCount }, (_, number) => number), new AbortController().signal, () => {
    acknowledged += 1;
    if (acknowledged === killAfter) {
      const perBatch = (performance.now() - sendStarted) / acknowledged;
      killing = delay(random() * perBatch).then(() => {
        killAtMs = performance.now() - sendStarted;
        return killAndRestart();
      });
      killing.catch(() => undefined); // awaited below, once the batches are answered
    }
  }).then(() => null, (error: Error) => error);
  const failure = await run;
  if (!killing) problems.push(failure ? `the import failed before the kill: ${failure.message}` : "the import ended before the kill");
  else if (failure && killAtMs === 0) problems.push(`a batch failed before the kill: ${failure.message}`);
  await killing;
  const acknowledgedAtKill = acknowledged;

  // After the restart: every batch all or nothing, and the import's record the same.
  const { client: again } = await signedInClient(url, "admin@demo.test");
  const rows = await markedRows(again, marker);
  const byBatch = new Map<number, number>();
  for (const row of rows) {
    const batch = Number(/-(\d+)-\d+$/.exec(row.external_id)![1]);
    byBatch.set(batch, (byBatch.get(batch) ?? 0) + 1);
  }
  const partial = [...byBatch.entries()].filter(([, count]) => count !== batchRows);
  if (partial.length > 0) problems.push(`partial batches: ${partial.map(([batch, count]) => `${batch} (${count} of ${batchRows} rows)`).join(", ")}`);
  const withRows = [...byBatch.keys()].sort((a, b) => a - b);
  const recorded = (await rpcSuccess<ImportState>(again, "get_import", { p_import_id: importId })).import;
  if (JSON.stringify(recorded.batches) !== JSON.stringify(withRows)) {
    problems.push(`recorded batches [${recorded.batches.join(",")}] but rows of batches [${withRows.join(",")}]`);
  }
  if (recorded.created !== rows.length) problems.push(`the import records ${recorded.created} created, ${rows.length} rows are there`);
  if (recorded.status !== "running") problems.push(`the import is ${recorded.status} after the kill`);
  if (JSON.stringify(withRows) !== JSON.stringify(withRows.map((_, index) => index))) problems.push(`applied batches out of order: [${withRows.join(",")}]`);
  if (withRows.length < acknowledgedAtKill) problems.push(`${acknowledgedAtKill} batches were answered, ${withRows.length} are there`);

  // The resume: the whole file again; applied batches answer from their recorded result.
  const ids = new Map(rows.map((row) => [row.external_id, row.id]));
  await sendBatches(again, importId, marker, Array.from({ length: batchCount }, (_, number) => number), new AbortController().signal, (batch, answer) => {
    const applied = withRows.includes(batch);
    if (answer.replayed !== applied) problems.push(`batch ${batch} answered replayed ${answer.replayed}, yet ${applied ? "was" : "was not"} applied`);
    if (answer.created !== batchRows) problems.push(`batch ${batch} created ${answer.created} of ${batchRows}`);
    if (applied && answer.results.some((result, index) => result.id !== ids.get(`${marker}-${batch}-${index}`))) {
      problems.push(`batch ${batch}'s recorded results name other records than its rows`);
    }
  });
  await rpcSuccess(again, "finish_import", { p_import_id: importId });
  const finished = (await rpcSuccess<ImportState>(again, "get_import", { p_import_id: importId })).import;
  const finalRows = (await markedRows(again, marker)).length;
  if (finished.status !== "completed" || finished.created !== total || finalRows !== total) {
    problems.push(`after the resume: ${finished.status}, ${finished.created} created, ${finalRows} rows (the file has ${total})`);
  }
  return { killAtMs: Math.round(killAtMs), acknowledged: acknowledgedAtKill, applied: withRows.length, problems };
}

/** The customers of a round (found by its marker in their names, told apart by their external ids). */
async function markedRows(client: CrmClient, marker: string): Promise<{ id: string; external_id: string }[]> {
  const rows: { id: string; external_id: string }[] = [];
  let cursor: Json | null = null;
  do {
    const page: { records: { id: string; external_id: string | null }[]; next_cursor: Json | null } = await rpcSuccess(client, "export_records",
      { p_module: "customers", p_search: marker, p_cursor: cursor, p_limit: 5000 });
    rows.push(...page.records.filter((row): row is { id: string; external_id: string } => row.external_id?.startsWith(`${marker}-`) ?? false));
    cursor = page.next_cursor;
  } while (cursor !== null);
  return rows;
}

/** A version of the quote: its notes and every line say which one; 20 to 180 lines. */
function quoteVersion(version: number, customerId: string, random: () => number): QuoteVersion {
  return {
    header: { customer_id: customerId, notes: `Sürüm ${version}`, document_discount_type: "amount", document_discount_value: String(version % 50) },
    items: Array.from({ length: 20 + Math.floor(random() * 161) }, (_, index) => ({
      description: `S${version}-${index} Danışmanlık`,
      quantity: String(1 + ((index + version) % 7)),
      unit: "saat",
      unit_price: (100 + ((version * 37 + index * 13) % 900)).toFixed(2),
      vat_rate: 20,
    })),
  };
}

/** The quote saved again and again, killed while a save may be on its way; checked after the restart. */
async function quoteRound(url: string, quote: { id: string; updatedAt: string; version: number; customerId: string }, random: () => number,
  killAndRestart: () => Promise<void>): Promise<QuoteRound> {
  const problems: string[] = [];
  const { client } = await signedInClient(url, "admin@demo.test");
  const sent = new Map<number, QuoteVersion>();
  if (!quote.id) {
    quote.customerId = (await rpcSuccess<{ records: { id: string }[] }>(client, "list_customers", { p_limit: 1 })).records[0].id;
    sent.set(0, quoteVersion(0, quote.customerId, random));
    const saved = await rpcSuccess<{ id: string; updated_at: string }>(client, "save_quote", { p_id: null, p_values: sent.get(0)!.header, p_items: sent.get(0)!.items });
    Object.assign(quote, { id: saved.id, updatedAt: saved.updated_at });
  }

  // Saves one after another, each with new lines and prices, until the kill.
  const killAtMs = 300 + Math.floor(random() * 2700);
  let killedAt = Infinity;
  let saves = 0;
  let acknowledged = quote.version;
  let inFlight = quote.version;
  const killing = delay(killAtMs).then(() => {
    killedAt = performance.now();
    return killAndRestart();
  });
  killing.catch(() => undefined); // awaited below, once the saves stopped
  for (;;) {
    const version = inFlight + 1;
    const next = quoteVersion(version, quote.customerId, random);
    sent.set(version, next);
    inFlight = version;
    try {
      const saved = await rpcSuccess<{ updated_at: string }>(client, "save_quote",
        { p_id: quote.id, p_values: next.header, p_items: next.items, p_updated_at: quote.updatedAt });
      quote.updatedAt = saved.updated_at;
      acknowledged = version;
      saves += 1;
    } catch (error) {
      if (performance.now() < killedAt) problems.push(`a save failed before the kill: ${(error as Error).message}`);
      break;
    }
  }
  await killing;

  // After the restart: one version, whole.
  const { client: again } = await signedInClient(url, "admin@demo.test");
  const { quote: header, items, totals, revisions } = await rpcSuccess<QuoteDetails>(again, "get_quote_details", { p_id: quote.id });
  const version = Number(/^Sürüm (\d+)$/.exec(header.notes)?.[1]);
  const versionsOfLines = new Set(items.map((item) => Number(/^S(\d+)-/.exec(item.description)?.[1])));
  if (versionsOfLines.size !== 1 || !versionsOfLines.has(version)) {
    problems.push(`header of version ${version}, lines of versions ${[...versionsOfLines].join(", ")}`);
  }
  const expected = sent.get(version);
  if (!expected) {
    problems.push(`shows version ${version}, which was not sent in this round`);
  } else {
    const sameLines = items.length === expected.items.length && items.every((item, index) =>
      item.description === expected.items[index].description && Number(item.quantity) === Number(expected.items[index].quantity) &&
      Number(item.unit_price) === Number(expected.items[index].unit_price));
    if (!sameLines) problems.push(`version ${version}'s lines differ from those sent (${items.length} of ${expected.items.length})`);
    const preview = await rpcSuccess<{ totals: Totals }>(again, "preview_quote_totals", { p_values: expected.header, p_items: expected.items });
    if (JSON.stringify(preview.totals) !== JSON.stringify(totals)) problems.push(`totals ${totals.grand_total} differ from version ${version}'s ${preview.totals.grand_total}`);
  }
  // The quote's stored total (written with its lines) agrees with its lines.
  const stored = revisions.find((entry) => entry.id === quote.id)?.grand_total;
  if (Number(stored) !== Number(totals.grand_total)) problems.push(`stored grand total ${stored}, its lines make ${totals.grand_total}`);
  if (version < acknowledged) problems.push(`an acknowledged save was lost: shows version ${version}, ${acknowledged} was answered`);
  const shown = version === acknowledged ? "acknowledged" : version === inFlight ? "in flight" : "neither";
  quote.version = Math.max(version, inFlight);
  quote.updatedAt = header.updated_at;
  return { killAtMs, saves, shown, lines: items.length, problems };
}
