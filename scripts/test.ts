/**
 * `npm test`: every test layer, then one summary line. The app is built once for the tests'
 * keys; then lanes run side by side: the Playwright journeys, in one part per two cores
 * (`--shard`), each with its own stack (port, embedded database, mail server: they never
 * share data), and every other layer, one after another. A journey mostly waits (on the page,
 * the embedded database's one thread, its timers), but a browser, a stack and the other
 * layers beside it fill two cores: measured on a 2-core machine, two halves beside the other
 * layers pushed page loads past the journeys' limits, one lane does not.
 * The first half prints as it goes; every other layer's output is printed whole when it ends.
 * A layer whose system prerequisite is missing is skipped with a hint when CI is unset;
 * under CI=true a missing prerequisite fails the run.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import postgres from "postgres";
import { projectRoot, supabaseCli } from "./stack/env.ts";
import { freePort } from "./stack/free-port.ts";
import { adminUrl, createTestDatabase } from "./stack/test-database.ts";

/** Where a layer's output goes: the terminal as it comes, or a buffer printed when the layer ends. */
type Output = (text: string) => void;

interface Layer {
  name: string;
  /** Returns what is missing (with how to get it), or null when the layer can run. */
  missing?: () => Promise<string | null>;
  run: (out: Output) => Promise<boolean>;
}

const bin = (tool: string) => `${projectRoot}node_modules/.bin/${tool}`;
const onPath = (tool: string) => spawnSync("sh", ["-c", `command -v ${tool}`]).status === 0;
const setupHint = "run `sudo npm run setup:system`";

function step(out: Output, command: string, args: string[], env: Record<string, string> = {}): Promise<boolean> {
  out(`\n$ ${[command.replace(projectRoot, ""), ...args].join(" ")}\n`);
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: projectRoot, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
    child.stdout.on("data", (chunk: Buffer) => out(chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => out(chunk.toString()));
    child.on("error", (error) => {
      out(`${error.message}\n`);
      resolve(false);
    });
    child.on("close", (code) => resolve(code === 0));
  });
}

async function postgresMissing(): Promise<string | null> {
  const sql = postgres(adminUrl, { max: 1, connect_timeout: 5, onnotice: () => {} });
  try {
    const [row] = await sql`select count(*)::int as n from pg_available_extensions where name = 'pgtap'`;
    if (row.n === 0) return `the pgTAP extension (postgresql-15-pgtap): ${setupHint}`;
  } catch {
    return `PostgreSQL 15+ at ${adminUrl} (set TEST_DATABASE_ADMIN_URL to use another server)`;
  } finally {
    await sql.end();
  }
  if (!onPath("pg_prove")) return `pg_prove (libtap-parser-sourcehandler-pgtap-perl): ${setupHint}`;
  if (!existsSync(supabaseCli)) return "the Supabase CLI binary (installed by npm ci on Linux x64 only)";
  return null;
}

/**
 * The security advisors on a fresh seeded database, plus the same checks over the
 * organizations' own schemas (the advisors only scan exposed schemas).
 */
async function securityAdvisors(out: Output): Promise<boolean> {
  const database = await createTestDatabase({ prefix: "crm_advisors", seed: true });
  try {
    const advisors = await step(out, supabaseCli, ["db", "advisors", `--remote=${database.url}`, "--fail-on", "warn"], {
      PGSSLMODE: "disable",
    });
    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      const findings = await sql`select * from private.tenant_security_findings()`;
      const [{ schemas }] = await sql`select count(*)::int as schemas from private.organizations where template_version > 0`;
      out(`tenant schemas checked: ${schemas}, findings: ${findings.length}\n`);
      for (const finding of findings) out(`  ${finding.schema_name} ${finding.object_name ?? ""}: ${finding.finding}\n`);
      return advisors && schemas > 0 && findings.length === 0;
    } finally {
      await sql.end();
    }
  } finally {
    await database.drop();
  }
}

/** pgTAP (pg_prove) on a fresh database with every migration applied. */
async function pgTap(out: Output): Promise<boolean> {
  const database = await createTestDatabase({ prefix: "crm_pgtap" });
  try {
    const url = new URL(database.url);
    return await step(out, "pg_prove", ["--ext", ".sql", "-r", `${projectRoot}supabase/tests`], {
      PGHOST: url.hostname,
      PGPORT: url.port || "5432",
      PGUSER: decodeURIComponent(url.username) || "postgres",
      PGDATABASE: database.name,
      ...(url.password ? { PGPASSWORD: decodeURIComponent(url.password) } : {}),
    });
  } finally {
    await database.drop();
  }
}

/** Every layer but the journeys: one after another, beside them. */
const layers: Layer[] = [
  { name: "typecheck", run: (out) => step(out, bin("tsc"), ["--noEmit", "-p", "tsconfig.json"]) },
  { name: "eslint", run: (out) => step(out, bin("eslint"), ["--max-warnings", "0", "."]) },
  {
    name: "deno lint + check",
    run: async (out) =>
      (await step(out, bin("deno"), ["lint", "supabase/functions", "scripts/stack/functions-main.ts"])) &&
      (await step(out, bin("deno"), ["check", "supabase/functions", "scripts/stack/functions-main.ts"])),
  },
  { name: "vitest (unit + integration)", run: (out) => step(out, bin("vitest"), ["run", "--project", "unit", "--project", "integration"]) },
  {
    // The short run of `npm run fuzz` (its seed fixed, so a run here is the same cases again).
    name: "fuzz (hostile input, 1,000+ cases)",
    run: (out) => step(out, bin("tsx"), ["scripts/fuzz.ts", "--cases", "1000", "--seed", "20261126"]),
  },
  {
    name: "deno test (edge functions)",
    run: (out) => step(out, bin("deno"), ["test", "--allow-env", "--allow-net", "--allow-read", "supabase/functions"]),
  },
  {
    // `npm run db:diff`: prints the difference and fails when the declarative schema files
    // (supabase/schemas, supabase/tenant) and the migrations do not agree.
    name: "schema files = migrations (db:diff)",
    missing: postgresMissing,
    run: (out) => step(out, bin("tsx"), ["scripts/db-diff.ts"]),
  },
  { name: "security advisors (public + tenant schemas)", missing: postgresMissing, run: securityAdvisors },
  { name: "pgTAP", missing: postgresMissing, run: pgTap },
  {
    name: "vitest (PostgreSQL backend + generated types)",
    missing: postgresMissing,
    run: (out) => step(out, bin("vitest"), ["run", "--project", "postgres"]),
  },
];

/** The journeys: the product as the tests' build serves it (playwright.config.ts), one part per two cores. */
const journeyShards = Math.max(1, Math.floor(availableParallelism() / 2));
const journeys: Layer[] = Array.from({ length: journeyShards }, (_, index) => ({
  name: `playwright e2e (${index + 1}/${journeyShards})`,
  missing: async () => (existsSync("/usr/bin/chromium") ? null : `Chromium at /usr/bin/chromium: ${setupHint}`),
  run: async (out) =>
    // Its own results folder too: a runner clears and writes its folder's artifacts by worker number.
    step(out, bin("playwright"), ["test", `--shard=${index + 1}/${journeyShards}`, `--output=test-results/${index + 1}`], {
      E2E_PORT: String(await freePort()),
    }),
}));

const strict = process.env.CI === "true" || process.env.CI === "1";
const results: { name: string; outcome: "passed" | "failed" | "skipped"; note?: string; seconds?: number }[] = [];
const startedAt = performance.now();
const live: Output = (text) => process.stdout.write(text);

/** Runs one layer; `buffered` holds its output back until it ends, so that lanes do not interleave lines. */
async function runLayer(layer: Layer, buffered: boolean): Promise<void> {
  const chunks: string[] = [];
  const out: Output = buffered ? (text) => chunks.push(text) : live;
  const flush = () => {
    if (buffered) live(chunks.join(""));
  };
  if (!buffered) live(`\n━━━ ${layer.name} ━━━\n`);
  const missing = (await layer.missing?.()) ?? null;
  if (missing) {
    live(`${buffered ? `\n━━━ ${layer.name} ━━━\n` : ""}missing prerequisite: ${missing}\n`);
    results.push({ name: layer.name, outcome: strict ? "failed" : "skipped", note: missing });
    return;
  }
  const layerStartedAt = performance.now();
  const passed = await layer.run(out).catch((error: unknown) => {
    out(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return false;
  });
  const seconds = (performance.now() - layerStartedAt) / 1000;
  if (buffered) live(`\n━━━ ${layer.name} (${passed ? "passed" : "FAILED"} in ${Math.round(seconds)} s) ━━━\n`);
  flush();
  results.push({ name: layer.name, outcome: passed ? "passed" : "failed", seconds });
}

// The journeys' build first: nothing else writes dist/ while both lanes run.
live("\n━━━ build for the tests' keys ━━━\n");
const built = await step(live, bin("vite"), ["build", "--mode", "test-keys"]);
if (!built) results.push({ name: "vite build (test keys)", outcome: "failed" });
await Promise.all([
  ...journeys.map((journey, index) =>
    built ? runLayer(journey, index > 0) : Promise.resolve(results.push({ name: journey.name, outcome: "failed", note: "the build failed" })),
  ),
  (async () => {
    for (const layer of layers) await runLayer(layer, true);
  })(),
]);

console.log("\n━━━ summary ━━━");
const order = [...layers, ...journeys].map((layer) => layer.name);
for (const result of results.toSorted((a, b) => order.indexOf(a.name) - order.indexOf(b.name))) {
  const took = result.seconds === undefined ? "" : `${Math.round(result.seconds)} s`.padStart(7);
  console.log(`${result.outcome.padEnd(7)} ${took} ${result.name}${result.note ? `  (${result.note})` : ""}`);
}
const count = (outcome: string) => results.filter((result) => result.outcome === outcome).length;
console.log(
  `layers: ${count("passed")} passed, ${count("failed")} failed, ${count("skipped")} skipped, in ${Math.round((performance.now() - startedAt) / 60_000)} min`,
);
process.exit(count("failed") > 0 ? 1 : 0);
