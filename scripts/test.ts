/**
 * `npm test`: every test layer, one after another, then one summary line.
 * A layer whose system prerequisite is missing is skipped with a hint when CI is unset;
 * under CI=true a missing prerequisite fails the run.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import postgres from "postgres";
import { projectRoot, supabaseCli } from "./stack/env.ts";
import { adminUrl, createTestDatabase } from "./stack/test-database.ts";

interface Layer {
  name: string;
  /** Returns what is missing (with how to get it), or null when the layer can run. */
  missing?: () => Promise<string | null>;
  run: () => Promise<boolean>;
}

const bin = (tool: string) => `${projectRoot}node_modules/.bin/${tool}`;
const onPath = (tool: string) => spawnSync("sh", ["-c", `command -v ${tool}`]).status === 0;
const setupHint = "run `sudo npm run setup:system`";

function step(command: string, args: string[], env: Record<string, string> = {}): boolean {
  console.log(`\n$ ${[command.replace(projectRoot, ""), ...args].join(" ")}`);
  const result = spawnSync(command, args, { cwd: projectRoot, stdio: "inherit", env: { ...process.env, ...env } });
  return result.status === 0;
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
async function securityAdvisors(): Promise<boolean> {
  const database = await createTestDatabase({ prefix: "crm_advisors", seed: true });
  try {
    const advisors = step(supabaseCli, ["db", "advisors", `--remote=${database.url}`, "--fail-on", "warn"], {
      PGSSLMODE: "disable",
    });
    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      const findings = await sql`select * from private.tenant_security_findings()`;
      const [{ schemas }] = await sql`select count(*)::int as schemas from private.organizations where template_version > 0`;
      console.log(`tenant schemas checked: ${schemas}, findings: ${findings.length}`);
      for (const finding of findings) console.log(`  ${finding.schema_name} ${finding.object_name ?? ""}: ${finding.finding}`);
      return advisors && schemas > 0 && findings.length === 0;
    } finally {
      await sql.end();
    }
  } finally {
    await database.drop();
  }
}

/** pgTAP (pg_prove) on a fresh database with every migration applied. */
async function pgTap(): Promise<boolean> {
  const database = await createTestDatabase({ prefix: "crm_pgtap" });
  try {
    const url = new URL(database.url);
    return step("pg_prove", ["--ext", ".sql", "-r", `${projectRoot}supabase/tests`], {
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

const layers: Layer[] = [
  { name: "typecheck", run: async () => step(bin("tsc"), ["--noEmit", "-p", "tsconfig.json"]) },
  { name: "eslint", run: async () => step(bin("eslint"), ["--max-warnings", "0", "."]) },
  {
    name: "deno lint + check",
    run: async () =>
      step(bin("deno"), ["lint", "supabase/functions", "scripts/stack/functions-main.ts"]) &&
      step(bin("deno"), ["check", "supabase/functions", "scripts/stack/functions-main.ts"]),
  },
  { name: "vitest (unit + integration)", run: async () => step(bin("vitest"), ["run", "--project", "unit", "--project", "integration"]) },
  {
    // The short run of `npm run fuzz` (its seed fixed, so a run here is the same cases again).
    name: "fuzz (hostile input, 1,000+ cases)",
    run: async () => step(bin("tsx"), ["scripts/fuzz.ts", "--cases", "1000", "--seed", "20261126"]),
  },
  {
    name: "deno test (edge functions)",
    run: async () => step(bin("deno"), ["test", "--allow-env", "--allow-net", "--allow-read", "supabase/functions"]),
  },
  {
    // `npm run db:diff`: prints the difference and fails when the declarative schema files
    // (supabase/schemas, supabase/tenant) and the migrations do not agree.
    name: "schema files = migrations (db:diff)",
    missing: postgresMissing,
    run: async () => step(bin("tsx"), ["scripts/db-diff.ts"]),
  },
  { name: "security advisors (public + tenant schemas)", missing: postgresMissing, run: securityAdvisors },
  { name: "pgTAP", missing: postgresMissing, run: pgTap },
  {
    name: "vitest (PostgreSQL backend + generated types)",
    missing: postgresMissing,
    run: async () => step(bin("vitest"), ["run", "--project", "postgres"]),
  },
  {
    name: "playwright e2e",
    missing: async () => (existsSync("/usr/bin/chromium") ? null : `Chromium at /usr/bin/chromium: ${setupHint}`),
    // The e2e product runs on the tests' keys (playwright.config.ts): the app is built with them.
    run: async () => step(bin("vite"), ["build", "--mode", "test-keys"]) && step(bin("playwright"), ["test"]),
  },
];

const strict = process.env.CI === "true" || process.env.CI === "1";
const results: { name: string; outcome: "passed" | "failed" | "skipped"; note?: string; seconds?: number }[] = [];
const startedAt = performance.now();

for (const layer of layers) {
  console.log(`\n━━━ ${layer.name} ━━━`);
  const missing = (await layer.missing?.()) ?? null;
  if (missing) {
    console.log(`missing prerequisite: ${missing}`);
    results.push({ name: layer.name, outcome: strict ? "failed" : "skipped", note: missing });
    continue;
  }
  const layerStartedAt = performance.now();
  const passed = await layer.run().catch((error: unknown) => {
    console.error(error);
    return false;
  });
  results.push({ name: layer.name, outcome: passed ? "passed" : "failed", seconds: (performance.now() - layerStartedAt) / 1000 });
}

console.log("\n━━━ summary ━━━");
for (const result of results) {
  const took = result.seconds === undefined ? "" : `${Math.round(result.seconds)} s`.padStart(7);
  console.log(`${result.outcome.padEnd(7)} ${took} ${result.name}${result.note ? `  (${result.note})` : ""}`);
}
const count = (outcome: string) => results.filter((result) => result.outcome === outcome).length;
console.log(
  `layers: ${count("passed")} passed, ${count("failed")} failed, ${count("skipped")} skipped, in ${Math.round((performance.now() - startedAt) / 60_000)} min`,
);
process.exit(count("failed") > 0 ? 1 : 0);
