/**
 * `npm run bench`: timings of the local stack, p50/p95 over repeated runs, each compared
 * with the raw-SQL baseline of the same work (the database alone, no HTTP, no Auth).
 * Numbers, not pass/fail: run it before and after a change that may cost speed.
 */
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import postgres from "postgres";
import { measureFrontEnd } from "./bench-front-end.ts";
import { freePort, startStack } from "./stack/server.ts";
import { createTestDatabase } from "./stack/test-database.ts";
import { storageKeys } from "../src/lib/browser-storage.ts";
import { anonClient, signedInClient } from "../tests/support/clients.ts";

interface Sample {
  name: string;
  p50: number;
  p95: number;
  runs: number;
}

function summarise(name: string, times: number[]): Sample {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { name, p50: at(0.5), p95: at(0.95), runs: sorted.length };
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

async function measure(name: string, runs: number, work: (run: number) => Promise<unknown>, warmups = Math.min(5, runs)): Promise<Sample> {
  for (let warmup = 0; warmup < warmups; warmup++) await work(-1 - warmup);
  const times: number[] = [];
  for (let run = 0; run < runs; run++) times.push(await timed(() => work(run)));
  return summarise(name, times);
}

function printPairs(title: string, pairs: [Sample, Sample][]) {
  console.log(`\n${title}`);
  console.log("work".padEnd(46), "p50 ms".padStart(9), "p95 ms".padStart(9), "runs".padStart(6), "ratio p50".padStart(10));
  for (const [measured, baseline] of pairs) {
    for (const sample of [measured, baseline]) {
      const ratio = sample === measured ? `${(measured.p50 / baseline.p50).toFixed(1)}x` : "baseline";
      console.log(sample.name.padEnd(46), sample.p50.toFixed(2).padStart(9), sample.p95.toFixed(2).padStart(9), String(sample.runs).padStart(6), ratio.padStart(10));
    }
  }
}

const superAdminId = "0b000000-0000-4000-8000-000000000001";

/**
 * Organization provisioning on PostgreSQL 15 (the production engine): the template's
 * tables for one organization, and the whole create_organization call for the N-th
 * organization when N-1 exist, each organization in its own transaction. Baseline: the
 * same template DDL executed directly, without registry, checks or bookkeeping.
 */
async function organizationScale(total: number): Promise<void> {
  let database;
  try {
    database = await createTestDatabase({ prefix: "crm_bench", seed: true });
  } catch (error) {
    console.log(`\norganization scale: skipped, PostgreSQL not reachable (${(error as Error).message})`);
    return;
  }
  const sql = postgres(database.url, { max: 1, onnotice: () => {} });
  const claims = JSON.stringify({ sub: superAdminId, role: "authenticated" });
  const createOrganization = (slug: string) =>
    sql.begin(async (tx) => {
      await tx`select set_config('request.jwt.claim.sub', ${superAdminId}, true), set_config('request.jwt.claims', ${claims}, true)`;
      const [{ answer }] = await tx`select public.create_organization(${slug}, ${`Bench ${slug}`}) as answer`;
      if (!answer.success) throw new Error(`create_organization ${slug}: ${answer.error}`);
    });
  try {
    const template = (await sql`select ddl from private.tenant_template_steps order by version`).map((row) => row.ddl as string);
    const tablesOnly = await measure("tables of one organization (migrate_tenant)", 20, (run) =>
      sql.begin(async (tx) => {
        const [{ id }] = await tx`insert into private.organizations (slug, name) values (${`tables-${run + 10}`}, 'Bench') returning id`;
        await tx`select private.migrate_tenant(${id})`;
      }),
    );
    const rawDdl = await measure("the template DDL alone (raw SQL)", 20, (run) =>
      sql.begin(async (tx) => {
        const schema = `raw_bench_${run + 10}`;
        await tx.unsafe(`create schema ${schema}; set local search_path = ${schema}, pg_catalog;`);
        for (const ddl of template) await tx.unsafe(ddl);
      }),
    );

    const started = performance.now();
    const existing = Number((await sql`select count(*) as n from private.organizations`)[0].n);
    for (let index = existing; index < total - 10; index++) await createOrganization(`bench-${index}`);
    const lastTen: number[] = [];
    for (let index = total - 10; index < total; index++) lastTen.push(await timed(() => createOrganization(`bench-${index}`)));
    const fillSeconds = (performance.now() - started) / 1000;
    const [{ organizations, relations, size }] = await sql`
      select (select count(*) from private.organizations)::int as organizations,
             (select count(*) from pg_class)::int as relations,
             pg_size_pretty(pg_database_size(current_database())) as size`;

    printPairs("organization provisioning (PostgreSQL 15, one organization per transaction)", [[tablesOnly, rawDdl]]);
    console.log(
      `create_organization, organization #${total} (${total - 1} exist): ${lastTen.at(-1)!.toFixed(1)} ms;` +
        ` last 10 p50 ${summarise("", lastTen).p50.toFixed(1)} ms, p95 ${summarise("", lastTen).p95.toFixed(1)} ms`,
    );
    console.log(`${organizations} organizations, ${relations} relations, database ${size}; filling took ${fillSeconds.toFixed(0)} s`);
  } finally {
    await sql.end();
    await database.drop();
  }
}

/**
 * 200 anonymous wrong-password sign-ins from one address through the login RPC (REST),
 * alternately for real accounts and unknown emails. Past the per-address failure limit
 * (20 by default) the throttle answers before any bcrypt work. CPU time is the stack process's, which
 * holds PGlite and the client too: an upper bound of the database's (budget: 5 s).
 * Locks the demo accounts, so it runs last.
 */
async function badLoginBurst(url: string): Promise<void> {
  const realEmails = ["admin@demo.test", "satis@demo.test", "admin@acme.test", "coklu@demo.test"];
  const anon = anonClient(url);
  let throttled = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  for (let attempt = 0; attempt < 200; attempt++) {
    const email = attempt % 2 === 0 ? realEmails[(attempt / 2) % realEmails.length] : `nobody-${randomUUID()}@bench.test`;
    const { data, error } = await anon.rpc("secure_login_prepare_auth", { p_email: email, p_password: `Wrong.${attempt}` });
    if (error) throw new Error(error.message);
    if ((data as { code?: string }).code === "too_many_attempts") throttled++;
  }
  const cpu = process.cpuUsage(cpuBefore);
  console.log("\n200 anonymous bad login attempts from one address (secure_login_prepare_auth via REST, in-memory PGlite)");
  console.log(
    `CPU of the stack process: ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s (budget 5 s); ` +
      `wall ${((performance.now() - started) / 1000).toFixed(2)} s; ${throttled} of 200 answered too_many_attempts`,
  );
}

const bootStarted = performance.now();
const stack = await startStack({ port: await freePort(), seed: true, serveApp: true });
const bootMs = performance.now() - bootStarted;

try {
  const { client, session } = await signedInClient(stack.url, "admin@demo.test");
  const { client: salesClient } = await signedInClient(stack.url, "satis@demo.test");
  const rawSql = `select set_config('request.jwt.claim.sub', '${session.user.id}', true),
                         public.get_current_user_context()`;

  const pairs: [Sample, Sample][] = [
    [
      await measure("get_current_user_context via REST", 200, async () => {
        const { error } = await client.rpc("get_current_user_context");
        if (error) throw new Error(error.message);
      }),
      await measure("get_current_user_context raw SQL", 200, () => stack.backend.sql.query(rawSql)),
    ],
    [
      await measure("password sign-in via Auth", 20, () =>
        anonClient(stack.url).auth.signInWithPassword({ email: "admin@demo.test", password: "Demo.1234" }),
      ),
      await measure("bcrypt check raw SQL", 20, () =>
        stack.backend.sql.query(
          "select encrypted_password = extensions.crypt('Demo.1234', encrypted_password) from auth.users where email = 'admin@demo.test'",
        ),
      ),
    ],
  ];

  pairs.push([
    await measure("secure_login_prepare_auth via REST (anon)", 50, async () => {
      const { error } = await anonClient(stack.url).rpc("secure_login_prepare_auth", {
        p_email: "satis@demo.test",
        p_password: "Demo.1234",
      });
      if (error) throw new Error(error.message);
    }),
    await measure("secure_login_prepare_auth raw SQL", 50, () =>
      stack.backend.sql.query("select public.secure_login_prepare_auth('satis@demo.test', 'Demo.1234')"),
    ),
  ]);

  // A module list: the permission check, the registry lookup and the dynamic query over the
  // organization's own table, against the same page selected straight from that table.
  const [{ schema }] = (await stack.backend.sql.query(
    "select private.tenant_schema('0a000000-0000-4000-8000-000000000001') as schema",
  )) as { schema: string }[];
  pairs.push([
    await measure("list_customers via REST (first page of 25)", 200, async () => {
      const { error } = await salesClient.rpc("list_customers", { p_limit: 25 });
      if (error) throw new Error(error.message);
    }),
    await measure("the same page, raw SQL on the tenant table", 200, () =>
      stack.backend.sql.query(
        `select id, name, owner_id, created_at, count(*) over () from "${schema}".customers
          where deleted_at is null order by private.fold_search(name), id limit 25`,
      ),
    ),
  ]);

  console.log(`stack boot (in-memory PGlite, migrations + seed + tenant tables, edge runtime): ${bootMs.toFixed(0)} ms`);
  printPairs("requests (in-memory PGlite)", pairs);

  const frontEnd = await measureFrontEnd(stack.url, async (page) => {
    // This browser has accepted the terms before, so sign-in goes straight home.
    await page.evaluate(([key, value]) => localStorage.setItem(key, value), [
      storageKeys.termsAcceptedEmails,
      JSON.stringify(["admin@demo.test"]),
    ] as const);
    await page.getByRole("textbox", { name: "E-posta" }).fill("admin@demo.test");
    await page.getByRole("textbox", { name: "Şifre", exact: true }).fill("Demo.1234");
    await page.getByRole("button", { name: "Giriş Yap" }).click();
    await page.getByRole("heading", { level: 1, name: /^Hoş geldiniz, / }).waitFor();
  });
  const usable = summarise("", frontEnd.usableLoginMs);
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
  console.log("\nfront end (headless Chromium, built app served by the stack; budget from research B5)");
  console.log(`JavaScript for /login, gzipped: ${kib(frontEnd.loginJsGzipBytes)} (budget 300 KiB)`);
  console.log(`JavaScript up to the signed-in home, gzipped: ${kib(frontEnd.homeJsGzipBytes)}`);
  console.log(
    `navigation to a usable /login: p50 ${usable.p50.toFixed(0)} ms, p95 ${usable.p95.toFixed(0)} ms over ${usable.runs} cold runs (LCP budget 2,500 ms)`,
  );
  await badLoginBurst(stack.url);
} finally {
  await stack.stop();
}

await organizationScale(Number(process.env.BENCH_ORGANIZATIONS ?? 1000));
