/**
 * `npm run load` (issue 15): N signed-in users of two organizations against `npm start`
 * for a fixed time, with autocannon (as many connections as users, each user with one
 * request at a time),
 * a sales day's mix on customers: list 50%, search 20%, open a record 15%, create or update
 * 15% (a user updates only records they created in the run). Reported per call: requests,
 * requests/s, p50/p95/p99 and errors. Then, with the product stopped, every write the server
 * acknowledged is checked in the database: there, with its last acknowledged values, in the
 * writer's organization, and in no other.
 *
 *   npm run load                          10 users, 60 s, on the embedded database (PGlite)
 *   npm run load -- --postgres            50 users on a fresh PostgreSQL database (TEST_DATABASE_ADMIN_URL)
 *   npm run load -- --users 20 --seconds 30
 *
 * Bounded in time (--seconds) and count (at most 2,000 requests a second on average), and
 * only ever talks to 127.0.0.1.
 */
import autocannon from "autocannon";
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { parseArgs } from "node:util";
import { openBackend } from "./stack/database.ts";
import { startProduct } from "./stack/product-process.ts";
import { freePort } from "./stack/free-port.ts";
import { createTestDatabase } from "./stack/test-database.ts";
import { acmeOrganizationId, demoOrganizationId, privilegedRpc, signedInClient } from "../tests/support/clients.ts";
import { testKeys } from "../tests/support/keys.ts";

const { values: options } = parseArgs({
  options: { postgres: { type: "boolean", default: false }, users: { type: "string" }, seconds: { type: "string", default: "60" } },
});
const userCount = Number(options.users ?? (options.postgres ? 50 : 10));
const seconds = Number(options.seconds);
const password = "Yük.Test.2026";
type Operation = "list" | "search" | "open" | "create" | "update";
const searchTerms = ["ist", "ltd", "a.ş", "yük", "demo", "tic", "san", "acme", "ğ", "İz"];

/** A signed-in user and what they keep between their requests (one at a time). */
interface LoadUser {
  email: string;
  organizationId: string;
  token: string;
  busy: boolean;
  /** Customer ids the user has seen in lists (to open). */
  seen: string[];
  /** The user's own records from this run: id → updated_at. */
  mine: Map<string, string>;
  counter: number;
}

/** One request's own state (autocannon's context, which it starts afresh for each request here). */
interface RequestContext {
  user: LoadUser;
  operation: Operation;
  started: number;
}

/** Writes the server acknowledged: record id → organization and last acknowledged values. */
const acknowledged = new Map<string, { organizationId: string; name: string; description: string | null }>();
/** Updates sent and not answered yet (at the end, one may have landed without its answer): id → description. */
const unanswered = new Map<string, string>();
const timings = new Map<Operation, number[]>();
const errors = new Map<Operation, number>();
const errorSamples: string[] = [];

const port = await freePort();
const database = options.postgres ? await createTestDatabase({ prefix: "crm_load" }) : null;
const dataDir = database ? null : mkdtempSync(`${tmpdir()}/crm-load-`);
const storageDir = mkdtempSync(`${tmpdir()}/crm-load-storage-`);

// The product as `npm start` runs it, in a process of its own, on the tests' keys (the
// npm script builds the app with them; the clients of tests/support use them).
const product = await startProduct({ port, keys: testKeys, storageDir, ...(database ? { databaseUrl: database.url } : { dataDir: dataDir! }) });
const url = product.url;

try {
  const organizations = [
    { slug: "demo", id: demoOrganizationId },
    { slug: "acme", id: acmeOrganizationId },
  ];
  // The users, half in each organization, created by the super admin, then signed in.
  const { client: superAdmin } = await signedInClient(url, "super@demo.test");
  const users: LoadUser[] = [];
  for (let index = 0; index < userCount; index += 1) {
    const organization = organizations[index % 2];
    const email = `yuk-${index + 1}@${organization.slug}.test`;
    const created = await privilegedRpc(superAdmin, "create_user_secure", {
      p_email: email, p_password: password, p_organization_id: organization.id, p_first_name: "Yük", p_last_name: `Testi ${index + 1}`, p_role: "user",
    });
    if (!created.success) throw new Error(`creating ${email}: ${JSON.stringify(created)}`);
    const { session } = await signedInClient(url, email, password, { organization: organization.id });
    users.push({ email, organizationId: organization.id, token: session.access_token, busy: false, seen: [], mine: new Map(), counter: 0 });
  }

  const headersFor = (user: LoadUser) => ({ "content-type": "application/json", apikey: product.keys.publishableKey, authorization: `Bearer ${user.token}` });
  const pick = (): Operation | "write" => {
    const roll = Math.random() * 100;
    return roll < 50 ? "list" : roll < 70 ? "search" : roll < 85 ? "open" : "write";
  };

  const result = await autocannon({
    url,
    connections: users.length,
    pipelining: 1,
    duration: seconds,
    maxOverallRequests: 2_000 * seconds,
    requests: [
      {
        method: "POST",
        setupRequest: (request, raw) => {
          // A user with no request on its way (there are as many users as connections).
          const context = raw as unknown as RequestContext;
          const user = users.find((candidate) => !candidate.busy)!;
          user.busy = true;
          user.counter += 1;
          const picked = pick();
          const operation: Operation =
            picked === "write" ? (user.mine.size > 0 && Math.random() < 0.4 ? "update" : "create") : picked === "open" && user.seen.length === 0 ? "list" : picked;
          Object.assign(context, { user, operation, started: performance.now() });
          const body = ((): [string, Record<string, unknown>] => {
            switch (operation) {
              case "list":
                return ["list_customers", { p_sort: "name", p_limit: 25, p_offset: 25 * Math.floor(Math.random() * 4) }];
              case "search":
                return ["list_customers", { p_search: searchTerms[Math.floor(Math.random() * searchTerms.length)], p_limit: 25 }];
              case "open":
                return ["get_customer", { p_id: user.seen[Math.floor(Math.random() * user.seen.length)] }];
              case "create":
                return ["create_customer", { p_values: { name: `Yük Testi ${user.email} ${user.counter}`, kind: "company", status: "lead", city: "İzmir" } }];
              default: {
                const ids = [...user.mine.keys()];
                const id = ids[Math.floor(Math.random() * ids.length)];
                const description = `Güncelleme ${user.counter}`;
                unanswered.set(id, description);
                return ["update_customer", { p_id: id, p_values: { description }, p_updated_at: user.mine.get(id) }];
              }
            }
          })();
          return { ...request, path: `/rest/v1/rpc/${body[0]}`, headers: headersFor(user), body: JSON.stringify(body[1]) };
        },
        onResponse: (status, text, raw) => {
          const { user, operation, started } = raw as unknown as RequestContext;
          user.busy = false;
          timings.set(operation, [...(timings.get(operation) ?? []), performance.now() - started]);
          let answer: { success?: boolean; record?: { id: string; updated_at: string; name: string; description: string | null }; records?: { id: string }[] } = {};
          try {
            answer = JSON.parse(text) as typeof answer;
          } catch {
            answer = {};
          }
          if (status >= 400 || answer.success !== true) {
            errors.set(operation, (errors.get(operation) ?? 0) + 1);
            if (errorSamples.length < 5) errorSamples.push(`${operation}: HTTP ${status} ${text.slice(0, 200)}`);
            return;
          }
          if (answer.records) user.seen = answer.records.map((record) => record.id).slice(0, 50);
          if (operation === "update" && answer.record) unanswered.delete(answer.record.id);
          if ((operation === "create" || operation === "update") && answer.record) {
            user.mine.set(answer.record.id, answer.record.updated_at);
            acknowledged.set(answer.record.id, { organizationId: user.organizationId, name: answer.record.name, description: answer.record.description });
          }
        },
      },
    ],
  });

  // The product stops; then the database is read directly.
  await product.stop();
  const backend = await openBackend(database ? { databaseUrl: database.url } : { dataDir: dataDir! }, product.keys);
  let lost = 0;
  let misplaced = 0;
  let stale = 0;
  try {
    const schemas = (await backend.sql.query("select id::text, schema_name from private.organizations where id = any ($1::uuid[])",
      [organizations.map((organization) => organization.id)])) as { id: string; schema_name: string }[];
    for (const { id: organizationId, schema_name: schema } of schemas) {
      const ids = [...acknowledged.entries()].filter(([, write]) => write.organizationId === organizationId).map(([id]) => id);
      const others = [...acknowledged.entries()].filter(([, write]) => write.organizationId !== organizationId).map(([id]) => id);
      const rows = (await backend.sql.query(`select id::text, name, description from "${schema}".customers where id = any ($1::uuid[])`, [ids])) as
        { id: string; name: string; description: string | null }[];
      const found = new Map(rows.map((row) => [row.id, row]));
      for (const id of ids) {
        const row = found.get(id);
        if (!row) lost += 1;
        // Its last acknowledged values, or those of an update still on its way when the run ended.
        else if (row.name !== acknowledged.get(id)!.name || (row.description !== acknowledged.get(id)!.description && row.description !== unanswered.get(id))) {
          stale += 1;
        }
      }
      const [{ count }] = (await backend.sql.query(`select count(*)::int as count from "${schema}".customers where id = any ($1::uuid[])`, [others])) as { count: number }[];
      misplaced += count;
    }
  } finally {
    await backend.close();
  }

  const percentile = (values: number[], p: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
  };
  const elapsed = result.duration;
  console.log(`\nload: ${users.length} users of 2 organizations for ${elapsed.toFixed(0)} s against npm start on ${database ? "PostgreSQL 15" : "the embedded database (PGlite)"}`);
  console.log(`machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB; ${new Date().toISOString().slice(0, 10)}`);
  console.log("call".padEnd(22), "requests".padStart(9), "req/s".padStart(8), "p50 ms".padStart(8), "p95 ms".padStart(8), "p99 ms".padStart(8), "errors".padStart(7));
  let total = 0;
  let totalErrors = 0;
  for (const operation of ["list", "search", "open", "create", "update"] as const) {
    const values = timings.get(operation) ?? [];
    total += values.length;
    totalErrors += errors.get(operation) ?? 0;
    console.log(operation.padEnd(22), String(values.length).padStart(9), (values.length / elapsed).toFixed(1).padStart(8),
      percentile(values, 50).toFixed(0).padStart(8), percentile(values, 95).toFixed(0).padStart(8), percentile(values, 99).toFixed(0).padStart(8),
      String(errors.get(operation) ?? 0).padStart(7));
  }
  console.log("all".padEnd(22), String(total).padStart(9), (total / elapsed).toFixed(1).padStart(8), "".padStart(8), "".padStart(8), "".padStart(8), String(totalErrors).padStart(7));
  console.log(`transport errors and timeouts: ${result.errors + result.timeouts}; non-2xx answers: ${result.non2xx}`);
  console.log(`acknowledged writes: ${acknowledged.size} records; lost: ${lost}; with other values than acknowledged: ${stale}; in the other organization: ${misplaced}`);
  for (const sample of errorSamples) console.log(`  error: ${sample}`);
  const clean = totalErrors === 0 && result.errors + result.timeouts === 0 && lost === 0 && stale === 0 && misplaced === 0;
  console.log(clean ? "goal met: 0 errors, 0 lost or misplaced writes" : "goal NOT met");
  process.exitCode = clean ? 0 : 1;
} finally {
  await product.stop();
  await database?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  rmSync(storageDir, { recursive: true, force: true });
}
