/**
 * `npm run faults` (issue 15): crashes and faults, against the product as `npm start` runs it.
 *
 * 1. kill -9 of the product's whole process group in the middle of an import of customers,
 *    on the embedded database (PGlite) and on PostgreSQL: it must start again on the same
 *    data, every batch is all or nothing (with its recorded result), the import's record
 *    agrees with its rows and the import can be finished (scripts/faults/kills.ts);
 * 2. the same in the middle of a quote's repeated saves: after the restart the quote is
 *    exactly one of the versions sent, never a mix (scripts/faults/kills.ts);
 *    both repeated round after round on one data folder or database, each a new kill moment;
 * 3. the database going away under a stream of requests (sign-in, a Data API RPC, an Edge
 *    Function): a private PostgreSQL cluster is stopped and started again under the running
 *    product; every answer must be clean (scripts/fuzz/judge.ts), none may hang, and the same
 *    product answers again afterwards (scripts/faults/outage.ts); then in Chromium, the
 *    customers list with the database gone shows its load error, and its retry button
 *    brings the list back without a page load (scripts/faults/browser.ts).
 *
 *   npm run faults                        3 rounds per backend, then the outage (a few minutes)
 *   npm run faults -- --rounds 5          more kill rounds
 *   npm run faults -- --seed 7            the same kill moments again
 *   npm run faults -- --only outage       some scenarios: pglite, postgres, outage, browser
 *   npm run faults -- --verbose           each round's findings as they come
 *
 * Only ever talks to 127.0.0.1; the PostgreSQL rounds use a fresh database on the machine's
 * server (TEST_DATABASE_ADMIN_URL), the outage a cluster of its own (never the shared one).
 * Bounded: every start, request and wait has its limit, and the whole run ends (failed) after
 * 6 + 2 × rounds minutes. Everything it creates (folders, databases, the cluster, processes)
 * is removed at the end, also when a check fails or the run is interrupted or cut. Exit code
 * 1 when any check failed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { seededRandom } from "../src/lib/spreadsheet/test-support.ts";
import { retryAfterOutage, type BrowserReport } from "./faults/browser.ts";
import { undoAll, undoLater, undoOnInterrupt } from "./faults/cleanup.ts";
import { createCluster } from "./faults/cluster.ts";
import { killRounds, type KillReport } from "./faults/kills.ts";
import { productAnswers, requestBoundMs, requestsThroughOutage, type OutageReport } from "./faults/outage.ts";
import { startProduct } from "./stack/product-process.ts";
import { testKeys } from "../tests/support/keys.ts";
import { freePort } from "./stack/free-port.ts";

const scenarios = ["pglite", "postgres", "outage", "browser"] as const;
const { values: options } = parseArgs({
  options: {
    rounds: { type: "string", default: "3" },
    seed: { type: "string" },
    only: { type: "string", default: scenarios.join(",") },
    verbose: { type: "boolean", default: false },
  },
});
const rounds = Number(options.rounds);
const seed = options.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(options.seed);
const only = new Set(options.only.split(","));
const unknown = [...only].filter((name) => !(scenarios as readonly string[]).includes(name));
if (!Number.isInteger(rounds) || rounds < 1 || !Number.isInteger(seed) || unknown.length > 0) {
  console.error(`usage: npm run faults -- [--rounds N (1 or more)] [--seed S] [--only ${scenarios.join(",")}] [--verbose]`);
  process.exit(2);
}
const random = seededRandom(seed);
const started = performance.now();
const log = (line: string) => {
  if (options.verbose) console.log(`  [${((performance.now() - started) / 1000).toFixed(0)} s] ${line}`);
};

undoOnInterrupt();
const limitMinutes = 6 + 2 * rounds;
setTimeout(() => {
  console.error(`\nfaults: still running after ${limitMinutes} minutes; cleaning up and giving up`);
  void undoAll().finally(() => process.exit(1));
}, limitMinutes * 60_000).unref();
const failures: string[] = [];
const tables: string[] = [];

/** A table: a title, a header row and rows, columns padded to their widest cell. */
function table(title: string, rows: string[][]): string {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  const line = (row: string[]) => row.map((cell, column) => cell.padEnd(widths[column])).join("  ").trimEnd();
  return [`\n${title}`, line(rows[0]), widths.map((width) => "-".repeat(width)).join("  "), ...rows.slice(1).map(line)].join("\n");
}

const seconds = (values: number[]) => (values.length === 0 ? "-" : `${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)} s`);

function killTable(report: KillReport) {
  const importsOk = report.imports.filter((round) => round.problems.length === 0).length;
  const quotesOk = report.quotes.filter((round) => round.problems.length === 0).length;
  const shown = (kind: string) => report.quotes.filter((round) => round.shown === kind).length;
  tables.push(table(`kill -9 on ${report.backend}: ${rounds} rounds on one ${report.backend === "PGlite" ? "data folder" : "database"}`, [
    ["check", "outcome"],
    ["started again after the kill", `${report.restarts.length}/${2 * rounds} starts (${seconds(report.restarts)})`],
    ["import: kill moments", report.imports.map((round) => `${(round.killAtMs / 1000).toFixed(1)} s`).join(", ") || "-"],
    ["import: batches answered / applied", report.imports.map((round) => `${round.acknowledged}/${round.applied}`).join(", ") || "-"],
    ["import: batch all-or-nothing, record = rows, resumed to the end", `${importsOk}/${rounds} rounds`],
    ["quote: kill moments", report.quotes.map((round) => `${(round.killAtMs / 1000).toFixed(1)} s`).join(", ") || "-"],
    ["quote: saves answered before the kill", report.quotes.map((round) => String(round.saves)).join(", ") || "-"],
    ["quote: exactly one version sent, whole (lines, header, totals)", `${quotesOk}/${rounds} rounds (last answered ${shown("acknowledged")}, on its way ${shown("in flight")})`],
  ]));
  for (const [index, round] of report.imports.entries()) for (const problem of round.problems) failures.push(`${report.backend} import round ${index + 1}: ${problem}`);
  for (const [index, round] of report.quotes.entries()) for (const problem of round.problems) failures.push(`${report.backend} quote round ${index + 1}: ${problem}`);
  for (const problem of report.problems) failures.push(`${report.backend}: ${problem}`);
  if (report.imports.length < rounds || report.quotes.length < rounds) failures.push(`${report.backend}: ${report.imports.length} of ${rounds} rounds ran`);
}

function outageTable(report: OutageReport) {
  const rows = [["request", "requests", "successes", "clean errors", "unclean", `over ${requestBoundMs / 1000} s`, "slowest", "answers again after"]];
  for (const [kind, tally] of report.tallies) {
    const statuses = [...tally.errorStatuses.entries()].sort(([a], [b]) => a - b).map(([status, count]) => `${count}× ${status}`).join(", ");
    rows.push([kind, String(tally.requests), String(tally.successes), `${tally.cleanErrors}${statuses ? ` (${statuses})` : ""}`, String(tally.unclean),
      String(tally.hung), `${(tally.slowestMs / 1000).toFixed(1)} s`, tally.recoveredAfter === null ? "never" : `${tally.recoveredAfter.toFixed(1)} s`]);
  }
  tables.push(table(`the database goes away (private PostgreSQL 15 stopped -m immediate, down ${report.downSeconds.toFixed(1)} s, started again; the product keeps running)`, rows));
  for (const [kind, tally] of report.tallies) {
    if (tally.unclean > 0) failures.push(`${kind}: ${tally.unclean} unclean answers`);
    if (tally.hung > 0) failures.push(`${kind}: ${tally.hung} requests without an answer within ${requestBoundMs / 1000} s`);
  }
  for (const sample of report.uncleanSamples) failures.push(`  unclean: ${sample}`);
  for (const problem of report.problems) failures.push(problem);
}

function browserTable(report: BrowserReport) {
  tables.push(table("the database goes away under the app (Chromium, satis@demo.test, customers then contacts)", [
    ["check", "outcome"],
    ["shown while the database is gone", report.shown ? `"${report.shown}" with its retry button (after ${report.errorAfter.toFixed(1)} s)` : "-"],
    ["one click on the retry button once it is back", report.listAfter ? `the list, ${report.listAfter.toFixed(1)} s after the click` : "-"],
    ["the page was not loaded again", report.samePage ? "yes (window marker kept, one navigation entry)" : "no"],
  ]));
  for (const problem of report.problems) failures.push(`browser: ${problem}`);
}

/** Scenario 3: the product on a private cluster, which goes away under requests, then under the app. */
async function outage() {
  console.log("the database goes away…");
  const folder = mkdtempSync(`${tmpdir()}/crm-faults-outage-`);
  const removeFolder = undoLater(() => rmSync(folder, { recursive: true, force: true }));
  const cluster = await createCluster();
  const removeCluster = undoLater(() => cluster.remove());
  try {
    const product = await startProduct({ port: await freePort(), keys: testKeys, storageDir: `${folder}/storage`, databaseUrl: cluster.url, quiet: true });
    const stopProduct = undoLater(() => product.stop());
    // The outage streams right-password sign-ins of one account far faster than a person
    // signs in; the per-account rate (private.security_settings) would answer 429 first.
    const settings = postgres(cluster.url, { max: 1, onnotice: () => {} });
    await settings`update private.security_settings set account_success_limit = 100000`.finally(() => settings.end());
    try {
      if (only.has("outage")) {
        outageTable(await requestsThroughOutage(product.url, cluster, log));
        if (product.exited()) failures.push("the product ended during the outage");
      }
      if (only.has("browser")) browserTable(await retryAfterOutage(product.url, cluster, () => productAnswers(product.url)));
      if (product.exited()) failures.push("the product ended");
    } catch (error) {
      failures.push(`the outage: ${(error as Error).message.split("\n")[0]}`);
      log(`the product's last log lines:\n${product.stderr().slice(-2_000)}`);
    } finally {
      await stopProduct();
    }
  } finally {
    await removeCluster();
    await removeFolder();
  }
}

try {
  for (const backend of ["PGlite", "PostgreSQL"] as const) {
    if (!only.has(backend === "PGlite" ? "pglite" : "postgres")) continue;
    console.log(`kill -9 rounds on ${backend}…`);
    killTable(await killRounds(backend, rounds, random, log));
  }
  if (only.has("outage") || only.has("browser")) await outage();
} finally {
  await undoAll();
}

console.log(`\nfaults: seed ${seed}, ${((performance.now() - started) / 1000).toFixed(0)} s`);
console.log(`machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB; ${new Date().toISOString().slice(0, 10)}`);
for (const text of tables) console.log(text);
if (failures.length > 0) {
  console.log(`\nchecks failed: ${failures.length}`);
  for (const failure of failures) console.log(`  ✗ ${failure}`);
} else {
  console.log("\nall checks passed");
}
process.exitCode = failures.length > 0 ? 1 : 0;
