/**
 * `BENCH_ONLY=data-api npm run bench` (issue 28, part 1): the Data API's cost per RPC, the
 * product running as `npm start` runs it (its own process: startProduct), measured from
 * this process.
 * - `get_current_user_context` through supabase-js, p50/p95, beside the same call in SQL as
 *   one transaction per call with the same settings (what PostgREST sends); goal: within 2×
 *   at p50. Beside it, the same request from a plain HTTP client (node:http, keep-alive): the
 *   share of supabase-js and Node's fetch in this process, which a browser does not pay;
 *   and both against HTTP alone (a Node server that answers `{}` at once): what any HTTP
 *   Data API costs on this machine before it does anything. Each side is measured after
 *   500 calls of warm-up (V8 compiles the product's hot paths; the SQL side's warm-up is its
 *   plans), p50 and p95 of the 1,000 calls after them;
 * - requests/s with 20 in flight (autocannon) on PostgreSQL (goal ≥ 300) and PGlite (≥ 150);
 * - the same on PostgreSQL with BENCH_DATA_API_ORGANIZATIONS organizations (default 500) as
 *   with the seed's 2.
 * "before" is the same product with the product's side of the cut turned off
 * (DATA_API_UNCUT=1, database.ts: ten settings statements, unprepared statements, BEGIN on
 * its own); the lite patch stays applied (it is part of the installed package: no lookups
 * of auth.users and auth.sessions, tokens verified once, no organization in the schema
 * cache), so "before" is better than 0.10.0 as published.
 */
import autocannon from "autocannon";
import { spawn } from "node:child_process";
import http from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import postgres from "postgres";
import { startProduct, type ProductProcess } from "../stack/product-process.ts";
import { freePort } from "../stack/free-port.ts";
import { createTestDatabase } from "../stack/test-database.ts";
import { anonClient, signedInClient, type CrmClient } from "../../tests/support/clients.ts";
import { testKeys } from "../../tests/support/keys.ts";

interface Latency {
  p50: number;
  p95: number;
}

const runs = 1000;
const warmups = 500;
const inFlight = 20;
const seconds = Number(process.env.BENCH_DATA_API_SECONDS ?? 10);

function percentiles(times: number[]): Latency {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { p50: at(0.5), p95: at(0.95) };
}

async function latency(work: () => Promise<unknown>): Promise<Latency> {
  for (let warmup = 0; warmup < warmups; warmup++) await work();
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return percentiles(times);
}

/** The measured request: get_current_user_context as supabase-js posts it, with the user's token. */
const callPath = "/rest/v1/rpc/get_current_user_context";
const callHeaders = (token: string) => ({ "content-type": "application/json", apikey: testKeys.publishableKey, authorization: `Bearer ${token}` });

/** Requests/s of get_current_user_context with `inFlight` requests on their way at all times. */
async function throughput(url: string, token: string): Promise<{ perSecond: number; errors: number; p95: number }> {
  const result = await autocannon({
    url: `${url}${callPath}`,
    method: "POST",
    connections: inFlight,
    duration: seconds,
    headers: callHeaders(token),
    body: "{}",
  });
  return { perSecond: result.requests.average, errors: result.errors + result.non2xx + result.timeouts, p95: result.latency.p97_5 };
}

/** POST of get_current_user_context over one kept-alive connection of node:http. */
function plainHttpCall(url: string, token: string): () => Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const { hostname, port } = new URL(url);
  const headers = { ...callHeaders(token), "content-length": "2" };
  return () =>
    new Promise<void>((resolve, reject) => {
      const request = http.request({ hostname, port, path: callPath, method: "POST", agent, headers }, (answer) => {
        answer.resume();
        answer.once("end", () => (answer.statusCode === 200 ? resolve() : reject(new Error(`status ${answer.statusCode}`))));
      });
      request.once("error", reject);
      request.end("{}");
    });
}

interface Figures {
  label: string;
  rest: Latency;
  /** The same call from a plain HTTP client. */
  plain: Latency;
  rps: { perSecond: number; errors: number; p95: number };
  /** Why it could not be measured (the product did not answer the call). */
  failed?: string;
}

/** The measured call at `url`: through supabase-js, from plain HTTP, and requests/s. */
async function measureCalls(label: string, url: string, client: CrmClient, token: string): Promise<Figures> {
  const rest = await latency(async () => {
    const { error } = await client.rpc("get_current_user_context");
    if (error) throw new Error(error.message);
  });
  const plain = await latency(plainHttpCall(url, token));
  const rps = await throughput(url, token);
  return { label, rest, plain, rps };
}

/** The product on a database (PostgreSQL URL or a PGlite folder), cut or not, measured. */
async function measureProduct(label: string, target: { databaseUrl?: string; dataDir?: string }, uncut: boolean, scratch: string): Promise<Figures> {
  const before = process.env.DATA_API_UNCUT;
  if (uncut) process.env.DATA_API_UNCUT = "1";
  else delete process.env.DATA_API_UNCUT;
  let product: ProductProcess | undefined;
  try {
    product = await startProduct({ port: await freePort(), keys: testKeys, storageDir: join(scratch, "storage"), quiet: true, readyTimeoutMs: 600_000, ...target });
  } finally {
    if (before === undefined) delete process.env.DATA_API_UNCUT;
    else process.env.DATA_API_UNCUT = before;
  }
  try {
    const { client, session } = await signedInClient(product.url, "admin@demo.test");
    return await measureCalls(label, product.url, client, session.access_token);
  } catch (error) {
    const none = { p50: Number.NaN, p95: Number.NaN };
    return { label, rest: none, plain: none, rps: { perSecond: Number.NaN, errors: Number.NaN, p95: Number.NaN }, failed: (error as Error).message.slice(0, 300) };
  } finally {
    await product.stop();
  }
}

/**
 * HTTP alone on this machine: a Node server of its own process that answers `{}` at once,
 * measured as the product is (supabase-js, plain HTTP, requests/s). What any HTTP Data API
 * costs here before it does anything, PostgREST included.
 */
async function httpAlone(token: string): Promise<Figures> {
  const port = await freePort();
  const server = spawn(process.execPath, ["-e", `require("node:http").createServer((request, answer) => {
    request.resume();
    request.on("end", () => answer.writeHead(200, { "content-type": "application/json" }).end("{}"));
  }).listen(${port}, "127.0.0.1", () => console.log("ready"));`], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    await new Promise<void>((resolve, reject) => {
      server.stdout.once("data", () => resolve());
      server.once("exit", (code) => reject(new Error(`the HTTP server ended (${code})`)));
    });
    const url = `http://127.0.0.1:${port}`;
    return await measureCalls("HTTP alone: a Node server answering {} at once", url, anonClient(url), token);
  } finally {
    server.kill();
  }
}

/**
 * The same call in SQL, one transaction per call with the settings lite gives it (the
 * token's claims, the request's headers), over one connection: PostgREST's work.
 */
async function sqlBaseline(databaseUrl: string, token: string): Promise<Latency> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  const claims = JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString()) as { sub: string };
  const headers = JSON.stringify({ "content-type": "application/json", "x-forwarded-for": "127.0.0.1" });
  try {
    return await latency(() =>
      sql.begin(async (tx) => {
        await tx`select set_config('role', 'authenticated', true), set_config('request.jwt.claim.sub', ${claims.sub}, true),
                        set_config('request.jwt.claim.role', 'authenticated', true), set_config('request.jwt.claims', ${JSON.stringify(claims)}, true),
                        set_config('request.method', 'POST', true), set_config('request.path', '/rpc/get_current_user_context', true),
                        set_config('request.headers', ${headers}, true)`;
        await tx`select public.get_current_user_context()`;
      }),
    );
  } finally {
    await sql.end();
  }
}

/** Organizations up to `total`, made the way the product makes them (private.create_organization, one per transaction). */
async function fillOrganizations(databaseUrl: string, total: number): Promise<{ organizations: number; seconds: number; stopped?: string }> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  const superAdminId = "0b000000-0000-4000-8000-000000000001";
  const started = performance.now();
  const deadline = started + Number(process.env.BENCH_DATA_API_FILL_SECONDS ?? 900) * 1000;
  try {
    const [{ id: sessionId }] = await sql`insert into auth.sessions (id, user_id) values (gen_random_uuid(), ${superAdminId}) returning id`;
    const claims = JSON.stringify({ sub: superAdminId, role: "authenticated", session_id: sessionId });
    let [{ count }] = await sql`select count(*)::int as count from private.organizations`;
    let stopped: string | undefined;
    while (count < total && performance.now() < deadline && !stopped) {
      const slug = `bench-api-${count}`;
      try {
        await sql.begin(async (tx) => {
          await tx`select set_config('request.jwt.claim.sub', ${superAdminId}, true), set_config('request.jwt.claims', ${claims}, true)`;
          const [{ answer }] = await tx`select private.create_organization(${slug}, ${`Bench ${slug}`}) as answer`;
          if (!answer.success) throw new Error(`create_organization ${slug}: ${answer.error}`);
        });
        count += 1;
      } catch (error) {
        // The server's limits (a shared machine: "out of shared memory" for locks): measure at what there is.
        stopped = (error as Error).message;
      }
    }
    return { organizations: count, seconds: (performance.now() - started) / 1000, stopped };
  } finally {
    await sql.end();
  }
}

function print(figures: Figures[], baseline: Latency, many?: { organizations: number; baseline: Latency }) {
  console.log("work".padEnd(52), "p50 ms".padStart(8), "p95 ms".padStart(8), "vs SQL".padStart(7), "http p50".padStart(9), "vs SQL".padStart(7), "req/s".padStart(8), "p97.5".padStart(7), "errors".padStart(7));
  for (const each of figures) {
    if (each.failed) {
      console.log(each.label.padEnd(52), `failed: ${each.failed}`);
      continue;
    }
    console.log(
      each.label.padEnd(52),
      each.rest.p50.toFixed(2).padStart(8),
      each.rest.p95.toFixed(2).padStart(8),
      `${(each.rest.p50 / baseline.p50).toFixed(1)}x`.padStart(7),
      each.plain.p50.toFixed(2).padStart(9),
      `${(each.plain.p50 / baseline.p50).toFixed(1)}x`.padStart(7),
      each.rps.perSecond.toFixed(0).padStart(8),
      String(each.rps.p95).padStart(7),
      String(each.rps.errors).padStart(7),
    );
  }
  console.log("SQL, one transaction per call, same settings (PostgreSQL)".padEnd(52), baseline.p50.toFixed(2).padStart(8), baseline.p95.toFixed(2).padStart(8), "baseline".padStart(7));
  if (many) {
    console.log(`the same SQL with ${many.organizations} organizations`.padEnd(52), many.baseline.p50.toFixed(2).padStart(8), many.baseline.p95.toFixed(2).padStart(8),
      `${(many.baseline.p50 / baseline.p50).toFixed(1)}x`.padStart(7));
  }
}

export async function dataApiBench(): Promise<void> {
  const organizations = Number(process.env.BENCH_DATA_API_ORGANIZATIONS ?? 500);
  let database;
  try {
    database = await createTestDatabase({ prefix: "crm_bench_api", seed: true });
  } catch (error) {
    console.log(`\ndata-api: skipped, PostgreSQL not reachable (${(error as Error).message})`);
    return;
  }
  const scratch = mkdtempSync(join(tmpdir(), "crm-bench-api-"));
  try {
    const admin = postgres(database.url, { max: 1, onnotice: () => {} });
    // Sign-ins of the same account, more than a person's rate of right passwords.
    await admin`update private.security_settings set account_success_limit = 100000`;
    await admin.end();
    const figures: Figures[] = [];
    figures.push(await measureProduct("PostgreSQL, 2 organizations, before (uncut)", { databaseUrl: database.url }, true, scratch));
    figures.push(await measureProduct("PostgreSQL, 2 organizations, after", { databaseUrl: database.url }, false, scratch));

    const tokenProduct = await startProduct({ port: await freePort(), keys: testKeys, storageDir: join(scratch, "storage"), quiet: true, databaseUrl: database.url });
    const { session } = await signedInClient(tokenProduct.url, "admin@demo.test");
    await tokenProduct.stop();
    const baseline = await sqlBaseline(database.url, session.access_token);

    figures.push(await measureProduct("PGlite, 2 organizations, after", { dataDir: join(scratch, "pglite") }, false, scratch));
    figures.push(await httpAlone(session.access_token));
    console.log("\nData API at 2 organizations (the table below repeats them):");
    print(figures, baseline);

    const filled = await fillOrganizations(database.url, organizations);
    console.log(`\n(data-api: ${filled.organizations} organizations made in ${filled.seconds.toFixed(0)} s${filled.organizations < organizations ? `, fewer than ${organizations}: ${filled.stopped ? `the server refused more: ${filled.stopped}` : "BENCH_DATA_API_FILL_SECONDS ran out"}` : ""})`);
    figures.push(await measureProduct(`PostgreSQL, ${filled.organizations} organizations, before (uncut)`, { databaseUrl: database.url }, true, scratch));
    figures.push(await measureProduct(`PostgreSQL, ${filled.organizations} organizations, after`, { databaseUrl: database.url }, false, scratch));

    const manyBaseline = await sqlBaseline(database.url, session.access_token);

    console.log(`\nData API: get_current_user_context through supabase-js and from plain HTTP ("http", node:http) (${runs} calls one at a time each), and requests/s with ${inFlight} in flight for ${seconds} s`);
    print(figures, baseline, { organizations: filled.organizations, baseline: manyBaseline });
    console.log("goals: p50 within 2x of SQL; >= 300 req/s on PostgreSQL, >= 150 on PGlite; the same at many organizations as at 2");
  } finally {
    await database.drop();
    rmSync(scratch, { recursive: true, force: true });
  }
}
