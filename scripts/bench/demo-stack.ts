/**
 * What the PostgreSQL-at-scale sections share: the bench's tools (a seeded database, the
 * measurement and its table, the customers' fill) and the demo organization on its own
 * seeded PostgreSQL behind a local stack, signed in as the demo admin, taken down after.
 */
import postgres from "postgres";
import type { SupabaseClient } from "@supabase/supabase-js";
import { freePort } from "../stack/free-port.ts";
import { startStack } from "../stack/server.ts";
import type { TestDatabase } from "../stack/test-database.ts";
import { demoOrganizationId, signedInClient } from "../../tests/support/clients.ts";
import { testKeys } from "../../tests/support/keys.ts";

/** One measurement's figures (ms). */
export interface Sample {
  name: string;
  p50: number;
  p95: number;
  runs: number;
}

/** What the bench's other sections already have: a seeded database, the measurement and its table, the customers' fill. */
export interface BenchTools {
  seededPostgres(prefix: string, section: string): Promise<TestDatabase | null>;
  measure(name: string, runs: number, work: (run: number) => Promise<unknown>, warmups?: number): Promise<Sample>;
  printPairs(title: string, pairs: [Sample, Sample][]): void;
  fillCustomers(sql: { query(text: string, params?: unknown[]): Promise<unknown[]> }, schema: string, count: number): Promise<void>;
}

/** The demo organization on a section's own database: raw SQL, its tenant schema, the demo admin's Data API client. */
export interface DemoStack {
  sql: postgres.Sql;
  schema: string;
  client: SupabaseClient;
  /** Fills the demo organization's customers up to `rows`. */
  fillCustomers(rows: number): Promise<void>;
}

/**
 * Runs `work` on a fresh seeded PostgreSQL database (prefix, the section's name when it is
 * skipped) behind a local stack; closes the connection, stops the stack and drops the
 * database whatever happens. Nothing runs when PostgreSQL is not reachable.
 */
export async function withDemoStack(
  tools: Pick<BenchTools, "seededPostgres" | "fillCustomers">,
  prefix: string,
  section: string,
  work: (demo: DemoStack) => Promise<void>,
): Promise<void> {
  const database = await tools.seededPostgres(prefix, section);
  if (!database) return;
  const stack = await startStack({ port: await freePort(), keys: testKeys, databaseUrl: database.url });
  const sql = postgres(database.url, { max: 1, onnotice: () => {} });
  try {
    const [{ schema }] = await sql`select private.tenant_schema(${demoOrganizationId}) as schema`;
    const { client } = await signedInClient(stack.url, "admin@demo.test");
    const fillCustomers = (rows: number) =>
      tools.fillCustomers({ query: (text, params) => sql.unsafe(text, params as never[]) }, schema as string, rows);
    await work({ sql, schema: schema as string, client, fillCustomers });
  } finally {
    await sql.end();
    await stack.stop();
    await database.drop();
  }
}
