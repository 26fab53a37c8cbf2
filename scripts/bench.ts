/**
 * `npm run bench`: timings of the local stack, p50/p95 over repeated runs, each compared
 * with the raw-SQL baseline of the same work (the database alone, no HTTP, no Auth).
 * Numbers, not pass/fail: run it before and after a change that may cost speed.
 * BENCH_ORGANIZATIONS, BENCH_CUSTOMERS, BENCH_DEALS, BENCH_TASKS (PostgreSQL) and BENCH_PGLITE_CUSTOMERS change
 * the scales. BENCH_ONLY=<section>[,<section>…] runs only those sections (names in `sections` at the
 * end: pdf, stack, data-api, records, quotes, search, link-sort, documents, imports, exports, custom-fields, parse, organizations, backup); BENCH_ONLY=postgres runs the PostgreSQL-only
 * ones. BENCH_IMPORT_ROWS changes the import and parse scale (100,000), BENCH_EXPORT_ROWS the export's (100,000); BENCH_BACKUP_ROWS
 * the customers behind the backup figures (1,000,000).
 */
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { build } from "vite";
import { chromium } from "playwright-core";
import { chromiumLaunchOptions } from "./chromium.ts";
import postgres from "postgres";
import { measureFrontEnd } from "./bench-front-end.ts";
import { dataApiBench } from "./bench/data-api.ts";
import { organizationScale } from "./bench/organizations.ts";
import { freePort } from "./stack/free-port.ts";
import { startStack } from "./stack/server.ts";
import { createTestDatabase, type TestDatabase } from "./stack/test-database.ts";
import { storageKeys } from "../src/lib/browser-storage.ts";
import { quotePdfInput, type QuotePdfSource } from "../src/lib/pdf/document-input.ts";
import { renderDocumentPdfBytes } from "../src/lib/pdf/render-document-pdf.node.ts";
import { randomValidVkn } from "../src/lib/turkish-identifiers.ts";
import { makeCustomerCsv, seededRandom } from "../src/lib/spreadsheet/test-support.ts";
import { importLimits } from "../src/lib/spreadsheet/limits.ts";
import { BATCHES_IN_FLIGHT, runBatches } from "../src/features/import-export/utils/run-batches.ts";
import { anonClient, demoOrganizationId, rpcSuccess, signedInClient } from "../tests/support/clients.ts";
import { testKeys } from "../tests/support/keys.ts";

/** The list's name order as private.record_page writes it (served by customers_name_sort_idx). */
const byName = 'private.turkish_sort_key(name) collate "C", id';
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openBackup, restoreBackup, writeBackup } from "./stack/backup.ts";
import { openBackend, openSqlConnection, type SqlRunner } from "./stack/database.ts";
import { FileStorage } from "./stack/storage-files.ts";
import { linkSortScale } from "./bench/link-sort.ts";
import type { Sample } from "./bench/demo-stack.ts";
import { exportScale } from "./bench/exports.ts";
import { customFieldScale } from "./bench/custom-fields.ts";

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

/** A fresh seeded PostgreSQL database for a section, or null (the section says it is skipped) when PostgreSQL is not reachable. */
async function seededPostgres(prefix: string, section: string): Promise<TestDatabase | null> {
  try {
    return await createTestDatabase({ prefix, seed: true });
  } catch (error) {
    console.log(`\n${section}: skipped, PostgreSQL not reachable (${(error as Error).message})`);
    return null;
  }
}

/**
 * 200 anonymous wrong-password sign-ins from one address through the login RPC (REST),
 * alternately for real accounts and unknown emails. A real account locks after 5 failures
 * and an unknown email past the per-address failure limit (20 by default) is held back:
 * both are answered without bcrypt work (the sign-in log tells how many: account_locked and
 * throttled). CPU time is the stack process's, which holds PGlite and the client too: an
 * upper bound of the database's (budget: 5 s). Locks the demo accounts, so it runs last.
 */
async function badLoginBurst(url: string, sql: SqlRunner): Promise<void> {
  const realEmails = ["admin@demo.test", "satis@demo.test", "admin@acme.test", "coklu@demo.test"];
  const anon = anonClient(url);
  const since = new Date().toISOString();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  for (let attempt = 0; attempt < 200; attempt++) {
    const email = attempt % 2 === 0 ? realEmails[(attempt / 2) % realEmails.length] : `nobody-${randomUUID()}@bench.test`;
    const { data, error } = await anon.rpc("secure_login_prepare_auth", { p_email: email, p_password: `Wrong.${attempt}` });
    if (error) throw new Error(error.message);
    if ((data as { success?: boolean }).success) throw new Error(`a wrong password signed in: ${email}`);
  }
  const cpu = process.cpuUsage(cpuBefore);
  const [{ without_bcrypt }] = await sql.query<{ without_bcrypt: number }>(
    `select count(*)::int as without_bcrypt from private.login_attempts
      where created_at >= $1 and failure_reason in ('account_locked', 'throttled')`,
    [since],
  );
  console.log("\n200 anonymous bad login attempts from one address (secure_login_prepare_auth via REST, in-memory PGlite)");
  console.log(
    `CPU of the stack process: ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s (budget 5 s); ` +
      `wall ${((performance.now() - started) / 1000).toFixed(2)} s; ${without_bcrypt} of 200 answered without bcrypt (locked or throttled)`,
  );
}


/**
 * Fills the demo organization's customers up to `count` rows with generated Turkish data
 * (names with İ ı ş ğ ç, statuses, cities, owners spread over the demo members), in
 * batches of 100,000, then VACUUM ANALYZE.
 */
async function fillCustomers(sql: { query(text: string, params?: unknown[]): Promise<unknown[]> }, schema: string, count: number) {
  const [{ existing }] = (await sql.query(`select count(*)::int as existing from "${schema}".customers`)) as { existing: number }[];
  for (let from = existing; from < count; from += 100_000) {
    const to = Math.min(count, from + 100_000);
    await sql.query(
      `insert into "${schema}".customers (name, status, city, phone, email, owner_id, created_by, created_at)
       select (array['Işık','Çelik','Öztürk','Güneş','Ağaoğlu','Şahin','Yıldız','Doğan','Kılıç','Aydın'])[1 + g % 10] || ' ' ||
              (array['Yazılım','Gıda','İnşaat','Enerji','Tekstil','Lojistik','Kimya','Turizm','Otomotiv','Danışmanlık'])[1 + (g / 10) % 10] ||
              ' ' || g || (array[' A.Ş.',' Ltd. Şti.',''])[1 + g % 3],
              (array['lead','active','passive'])[1 + g % 3],
              (array['İstanbul','Ankara','İzmir','Bursa','Antalya'])[1 + g % 5],
              '+90532' || lpad((g % 10000000)::text, 7, '0'),
              'info' || g || '@ornek.com.tr',
              m.user_id, m.user_id, now() - (g || ' seconds')::interval
         from generate_series($1::int + 1, $2::int) g
         join lateral (select user_id from private.memberships
                        where organization_id = '${demoOrganizationId}' order by user_id
                       offset g % (select count(*) from private.memberships where organization_id = '${demoOrganizationId}')
                       limit 1) m on true`,
      [from, to],
    );
  }
  // A settled table, as in production: the visibility map and the trigram index's pending
  // list done (measured right after the bulk insert, search p95 was 200 ms while vacuum ran).
  await sql.query(`vacuum analyze "${schema}".customers`);
}

/**
 * The customers module at scale, through the Data API as the admin of the demo
 * organization, beside the same query in raw SQL and the REST floor (the cheapest RPC).
 * Goal (issue 11): list and search p95 <= 50 ms; no page waits on an exact count.
 */
async function recordScale(label: string, url: string, sql: { query(text: string, params?: unknown[]): Promise<unknown[]> }, count: number) {
  const [{ schema }] = (await sql.query(`select private.tenant_schema('${demoOrganizationId}') as schema`)) as { schema: string }[];
  const filled = performance.now();
  await fillCustomers(sql, schema, count);
  const fillSeconds = (performance.now() - filled) / 1000;
  const { client } = await signedInClient(url, "admin@demo.test");
  const call = async (name: string, args: Record<string, unknown>) => {
    const { data, error } = await client.rpc(name as never, args as never);
    if (error || !(data as { success?: boolean })?.success) throw new Error(`${name}: ${error?.message ?? JSON.stringify(data)}`);
    return data as Record<string, unknown>;
  };
  const page = (where: string, order: string) =>
    `select (select jsonb_agg(t) from (select id, name, status, city, owner_id, created_at from "${schema}".customers
              where deleted_at is null ${where} order by ${order} limit 50) t),
            (select count(*) from (select 1 from "${schema}".customers where deleted_at is null ${where} limit 10001) c)`;
  const [{ id: sampleId }] = (await sql.query(`select id from "${schema}".customers where deleted_at is null order by id limit 1`)) as { id: string }[];
  let updatedAt = ((await call("get_customer", { p_id: sampleId })).record as { updated_at: string }).updated_at;
  const runs = 100;
  const pairs: [Sample, Sample][] = [
    [await measure("REST floor: get_current_user_context", runs, () => call("get_current_user_context", {})),
     await measure("raw SQL: select 1", runs, () => sql.query("select 1"))],
    [await measure("list, 50 by name", runs, () => call("list_customers", { p_limit: 50 })),
     await measure("  raw SQL", runs, () => sql.query(page("", byName)))],
    [await measure("list, 50 by date (newest first)", runs, () => call("list_customers", { p_sort: "created_at", p_descending: true, p_limit: 50 })),
     await measure("  raw SQL", runs, () => sql.query(page("", "created_at desc, id desc")))],
    [await measure("list, 50 by name, status = active", runs, () => call("list_customers", { p_filters: { status: "active" }, p_limit: 50 })),
     await measure("  raw SQL", runs, () => sql.query(page("and status = 'active'", byName)))],
    [await measure("search 'yazilim 12' (3+ characters)", runs, (run) => call("list_customers", { p_search: `yazilim ${12 + (run % 50)}`, p_limit: 50 })),
     await measure("  raw SQL", runs, (run) => sql.query(page(`and search_text like '%yazilim ${12 + (run % 50)}%'`, byName)))],
    [await measure("broad search 'isik' (a tenth of all match)", runs, () => call("list_customers", { p_search: "isik", p_limit: 50 })),
     await measure("  raw SQL (newest matches)", runs, () =>
       sql.query(page("and search_text like '%isik%'", "created_at desc, id desc")))],
    [await measure("get by id", runs, () => call("get_customer", { p_id: sampleId })),
     await measure("  raw SQL", runs, () => sql.query(`select to_jsonb(t) from "${schema}".customers t where id = $1`, [sampleId]))],
    [await measure("update (status)", runs, async (run) => {
       const answer = await call("update_customer", { p_id: sampleId, p_values: { status: run % 2 ? "active" : "passive" }, p_updated_at: updatedAt });
       updatedAt = (answer.record as { updated_at: string }).updated_at;
     }),
     await measure("  raw SQL", runs, (run) =>
       sql.query(`update "${schema}".customers set status = $2 where id = $1`, [sampleId, run % 2 ? "active" : "passive"]))],
  ];
  const { total_exact: exact } = (await call("list_customers", { p_limit: 1 })) as { total_exact: boolean };
  printPairs(`customers at scale (${label}, ${count.toLocaleString("en")} customers in one organization; filled in ${fillSeconds.toFixed(0)} s)`, pairs);
  console.log(`the list's total is ${exact ? "exact" : "capped at 10,000 (no exact count over a million rows)"}`);
}

/**
 * Deals and tasks at scale (issue 12): fills the demo organization up to `deals` deals over
 * every stage and `tasks` tasks (a tenth overdue), then measures through the Data API as the
 * demo admin the board's first load, a card move, the dashboard and the bell's count, each
 * beside raw SQL doing the same reads. Goal: each p95 <= 100 ms.
 */
async function pipelineScale(label: string, url: string, sql: { query(text: string, params?: unknown[]): Promise<unknown[]> }, deals: number, tasks: number) {
  const [{ schema }] = (await sql.query(`select private.tenant_schema('${demoOrganizationId}') as schema`)) as { schema: string }[];
  const members = `(select array_agg(user_id order by user_id) from private.memberships where organization_id = '${demoOrganizationId}')`;
  const filled = performance.now();
  const [{ existingDeals }] = (await sql.query(`select count(*)::int as "existingDeals" from "${schema}".deals`)) as { existingDeals: number }[];
  for (let from = existingDeals; from < deals; from += 100_000) {
    await sql.query(
      `insert into "${schema}".deals (title, amount, currency, stage, probability, expected_close_date, owner_id, created_by, created_at)
       select 'Fırsat ' || g || (array[' yazılım lisansı',' bakım sözleşmesi',' danışmanlık',' donanım'])[1 + g % 4],
              (1000 + (g * 7919) % 500000)::numeric, (array['TRY','TRY','TRY','EUR','USD'])[1 + g % 5],
              (array['lead','qualified','proposal','negotiation','won','lost'])[1 + g % 6], null,
              current_date + ((g % 240) - 60), m.ids[1 + g % cardinality(m.ids)], m.ids[1 + g % cardinality(m.ids)],
              now() - (g || ' seconds')::interval
         from generate_series($1::int + 1, $2::int) g, (select ${members} as ids) m`,
      [from, Math.min(deals, from + 100_000)],
    );
  }
  const [{ existingTasks }] = (await sql.query(`select count(*)::int as "existingTasks" from "${schema}".tasks`)) as { existingTasks: number }[];
  for (let from = existingTasks; from < tasks; from += 100_000) {
    await sql.query(
      `insert into "${schema}".tasks (title, type, priority, status, completed_at, completed_by, due_at, owner_id, created_by)
       select 'Görev ' || g, (array['call','meeting','email','visit','other'])[1 + g % 5],
              ((array['low','normal','high','urgent'])[1 + g % 4])::private.task_priority,
              ((array['open','open','in_progress','done','cancelled'])[1 + g % 5])::private.task_status,
              case when g % 5 = 3 then now() end, case when g % 5 = 3 then m.ids[1 + g % cardinality(m.ids)] end,
              now() + (((g % 60) - 6) || ' days')::interval, m.ids[1 + g % cardinality(m.ids)], m.ids[1 + g % cardinality(m.ids)]
         from generate_series($1::int + 1, $2::int) g, (select ${members} as ids) m`,
      [from, Math.min(tasks, from + 100_000)],
    );
  }
  await sql.query(`vacuum analyze "${schema}".deals`);
  await sql.query(`vacuum analyze "${schema}".tasks`);
  const fillSeconds = (performance.now() - filled) / 1000;

  const { client, session } = await signedInClient(url, "admin@demo.test");
  const call = async (name: string, args: Record<string, unknown>) => {
    const { data, error } = await client.rpc(name as never, args as never);
    if (error || !(data as { success?: boolean })?.success) throw new Error(`${name}: ${error?.message ?? JSON.stringify(data)}`);
    return data as Record<string, unknown>;
  };
  const board = (await call("get_deal_board", { p_per_stage: 50 })) as { stages: { key: string; cards: { id: string; updated_at: string }[] }[] };
  let card = board.stages.find((stage) => stage.key === "lead")!.cards[0];
  const runs = 100;
  const pairs: [Sample, Sample][] = [
    [await measure("board: every stage, 50 cards each, totals", runs, () => call("get_deal_board", { p_per_stage: 50 })),
     await measure("  raw SQL", runs, () =>
       sql.query(`select k.key, (select count(*) from "${schema}".deals d where d.deleted_at is null and d.stage = k.key),
                         (select jsonb_agg(c) from (select id, title, amount, currency, updated_at from "${schema}".deals d
                            where d.deleted_at is null and d.stage = k.key order by d.updated_at desc, d.id desc limit 50) c)
                    from unnest(array['lead','qualified','proposal','negotiation','won','lost']) k (key)`))],
    [await measure("card move (lead <-> qualified)", runs, async (run) => {
       const answer = await call("move_deal", { p_id: card.id, p_stage: run % 2 ? "lead" : "qualified", p_updated_at: card.updated_at });
       card = answer.record as typeof card;
     }),
     await measure("  raw SQL", runs, (run) =>
       sql.query(`update "${schema}".deals set stage = $2 where id = $1`, [card.id, run % 2 ? "qualified" : "lead"]))],
    [await measure("dashboard (get_dashboard)", runs, () => call("get_dashboard", {})),
     await measure("  raw SQL", runs, () =>
       sql.query(`select (select jsonb_agg(s) from (select stage, currency, count(*), sum(amount) from "${schema}".deals
                            where deleted_at is null group by stage, currency) s),
                         (select count(*) from "${schema}".tasks where deleted_at is null and owner_id = $1 and status in ('open', 'in_progress')),
                         (select count(*) from "${schema}".tasks where deleted_at is null and owner_id = $1 and status in ('open', 'in_progress') and due_at < now())`,
         [session.user.id]))],
    [await measure("notification count (the bell)", runs, () => call("get_unread_notification_count", {})),
     await measure("  raw SQL", runs, () =>
       sql.query(`select count(*) from private.notifications where organization_id = $1 and user_id = $2 and read_at is null`,
         [demoOrganizationId, session.user.id]))],
    [await measure("forecast, 6 months", runs, () => call("get_deal_forecast", { p_months: 6 })),
     await measure("  raw SQL", runs, () =>
       sql.query(`select to_char(expected_close_date, 'YYYY-MM'), currency, sum(amount * coalesce(probability, 10) / 100)
                    from "${schema}".deals where deleted_at is null and stage in ('lead','qualified','proposal','negotiation')
                     and expected_close_date >= date_trunc('month', current_date) and expected_close_date < date_trunc('month', current_date) + interval '6 months'
                   group by 1, 2`))],
    [await measure("tasks: my overdue view", runs, () =>
       call("list_tasks", { p_filters: { owner_id: "me", status: ["open", "in_progress"], due_at: { to: new Date().toISOString() } }, p_sort: "due_at", p_descending: false, p_limit: 25 })),
     await measure("  raw SQL", runs, () =>
       sql.query(`select id, title, due_at from "${schema}".tasks where deleted_at is null and owner_id = $1 and status in ('open', 'in_progress')
                   and due_at < now() order by due_at, id limit 25`, [session.user.id]))],
  ];
  printPairs(`deals and tasks at scale (${label}, ${deals.toLocaleString("en")} deals and ${tasks.toLocaleString("en")} tasks in one organization; filled in ${fillSeconds.toFixed(0)} s)`, pairs);
}

/**
 * Quotes on PostgreSQL (issue 13's goal: p95 <= 100 ms): a quote of 200 lines saved with
 * save_quote (the draft's header and every line replaced, totals recomputed and stored),
 * previewed with preview_quote_totals and read with get_quote_details, through the stack
 * as the app calls them. Baselines: raw SQL replacing the same 200 rows, summing the
 * same 200 lines, reading the quote and its lines.
 */
async function quotesOnPostgres(): Promise<void> {
  const database = await seededPostgres("crm_bench_quotes", "quotes on PostgreSQL");
  if (!database) return;
  const stack = await startStack({ port: await freePort(), keys: testKeys, databaseUrl: database.url });
  try {
    const sql = stack.backend.sql;
    const [{ schema }] = (await sql.query(`select private.tenant_schema('${demoOrganizationId}') as schema`)) as { schema: string }[];
    const { client } = await signedInClient(stack.url, "admin@demo.test");
    const call = async (name: string, args: Record<string, unknown>) => {
      const { data, error } = await client.rpc(name as never, args as never);
      if (error || !(data as { success?: boolean })?.success) throw new Error(`${name}: ${error?.message ?? JSON.stringify(data)}`);
      return data as Record<string, unknown>;
    };
    const rates = [0, 1, 10, 20];
    const items = Array.from({ length: 200 }, (_, index) => ({
      description: `Kalem ${index + 1} — danışmanlık ve kurulum hizmeti`,
      quantity: String(1 + (index % 7)),
      unit: index % 2 ? "saat" : "adet",
      unit_price: `${100 + ((index * 37) % 900)}.${String(index % 100).padStart(2, "0")}`,
      discount_type: index % 5 === 0 ? "percent" : index % 5 === 1 ? "amount" : null,
      discount_value: index % 5 === 0 ? "7.5" : index % 5 === 1 ? "10" : "0",
      vat_rate: rates[index % 4],
      vat_exemption_reason: index % 4 === 0 ? "İhracat istisnası" : null,
      withholding_rate: index % 9 === 0 ? "7/10" : null,
    }));
    const header = { document_discount_type: "percent", document_discount_value: "5", payment_terms: "30 gün" };
    const created = await call("save_quote", { p_id: null, p_values: header, p_items: items });
    const quoteId = created.id as string;
    let updatedAt = created.updated_at as string;
    const [{ owner_id: ownerId }] = (await sql.query(`select owner_id from "${schema}".quotes where id = $1`, [quoteId])) as { owner_id: string }[];
    const runs = 100;
    const pairs: [Sample, Sample][] = [
      [await measure("save_quote: 200 lines replaced, totals stored", runs, async (run) => {
         const answer = await call("save_quote", {
           p_id: quoteId, p_values: { ...header, notes: `Sürüm ${run}` }, p_items: items, p_updated_at: updatedAt });
         updatedAt = answer.updated_at as string;
       }),
       await measure("  raw SQL (delete and insert the 200 rows)", runs, () =>
         sql.query(
           `with gone as (delete from "${schema}".quote_items where quote_id = $1)
            insert into "${schema}".quote_items (quote_id, position, description, quantity, unit, unit_price, discount_type,
                                                 discount_value, vat_rate, vat_exemption_reason, withholding_rate, owner_id, created_by)
            select $1, r.position, r.description, r.quantity, r.unit, r.unit_price, r.discount_type, r.discount_value,
                   r.vat_rate, r.vat_exemption_reason, r.withholding_rate, $3, $3
              from rows from (jsonb_to_recordset($2::jsonb) as (description text, quantity numeric, unit text,
                   unit_price numeric, discount_type text, discount_value numeric, vat_rate numeric,
                   vat_exemption_reason text, withholding_rate text)) with ordinality as r (description, quantity, unit,
                   unit_price, discount_type, discount_value, vat_rate, vat_exemption_reason, withholding_rate, position)`,
           [quoteId, items, ownerId]))],
      [await measure("preview_quote_totals: 200 lines", runs, () => call("preview_quote_totals", { p_values: header, p_items: items })),
       await measure("  raw SQL (sum of the 200 lines)", runs, () =>
         sql.query(`select sum(r.quantity * r.unit_price), sum(round(r.quantity * r.unit_price * r.vat_rate / 100, 2))
                      from jsonb_to_recordset($1::jsonb) as r (quantity numeric, unit_price numeric, vat_rate numeric)`,
           [items]))],
      [await measure("get_quote_details: 200 lines with totals", runs, () => call("get_quote_details", { p_id: quoteId })),
       await measure("  raw SQL (the quote and its lines)", runs, () =>
         sql.query(`select to_jsonb(q), (select jsonb_agg(to_jsonb(i) order by i.position) from "${schema}".quote_items i
                                          where i.quote_id = q.id) from "${schema}".quotes q where q.id = $1`, [quoteId]))],
    ];
    printPairs("quotes of 200 lines (PostgreSQL 15 via the local stack; goal p95 <= 100 ms)", pairs);
  } finally {
    await stack.stop();
    await database.drop();
  }
}

/**
 * A 10 MB document through the local stack, as the app moves it: uploaded to the documents
 * Edge Function (multipart; type sniffed, sha256, Storage write, database record), then
 * downloaded through a signed Storage URL and compared byte for byte. MB/s of each way.
 */
async function documentTransfer(label: string, url: string, runs = 5): Promise<void> {
  const { client, session } = await signedInClient(url, "admin@demo.test");
  const size = 10 * 1000 * 1000;
  const file = new Uint8Array(size);
  for (let offset = 0; offset < size; offset += 65536) crypto.getRandomValues(file.subarray(offset, Math.min(size, offset + 65536)));
  file.set(new TextEncoder().encode("%PDF-1.7\n"));
  let objectPath = "";
  const upload = await measure(`upload 10 MB (documents function)`, runs, async () => {
    const form = new FormData();
    form.append("file", new Blob([file]), "bench.pdf");
    const response = await fetch(`${url}/functions/v1/documents`, {
      method: "POST",
      headers: { Authorization: `Bearer ${session.access_token}`, apikey: testKeys.publishableKey },
      body: form,
    });
    const answer = (await response.json()) as { success: boolean; code?: string; document?: { id: string } };
    if (!answer.success || !answer.document) throw new Error(`upload refused: ${answer.code}`);
    objectPath = `${demoOrganizationId}/${answer.document.id}/1`;
  }, 1);
  const download = await measure(`download 10 MB (signed Storage URL)`, runs, async () => {
    // Signed by the documents function (members cannot sign documents themselves).
    const { data, error } = await client.functions.invoke<{ signed_url: string }>("documents", { body: { action: "sign", object_path: objectPath } });
    if (error || !data) throw new Error(`signing refused: ${error?.message}`);
    const bytes = new Uint8Array(await (await fetch(data.signed_url)).arrayBuffer());
    if (bytes.length !== size || bytes[size - 1] !== file[size - 1]) throw new Error("downloaded bytes differ");
  }, 1);
  console.log(`\ndocuments, ${label}`);
  for (const sample of [upload, download]) {
    const megabytesPerSecond = (ms: number) => (size / 1e6 / (ms / 1000)).toFixed(1);
    console.log(`${sample.name.padEnd(46)} p50 ${sample.p50.toFixed(0)} ms (${megabytesPerSecond(sample.p50)} MB/s), ` +
      `p95 ${sample.p95.toFixed(0)} ms (${megabytesPerSecond(sample.p95)} MB/s) over ${sample.runs} runs`);
  }
}

/** Only the documents' transfer: an in-memory PGlite stack, then a PostgreSQL one. */
async function documentTransferOnBothBackends(): Promise<void> {
  const pgliteStack = await startStack({ port: await freePort(), keys: testKeys, seed: true });
  try {
    await documentTransfer("in-memory PGlite", pgliteStack.url);
  } finally {
    await pgliteStack.stop();
  }
  const database = await seededPostgres("crm_bench_documents", "documents on PostgreSQL");
  if (!database) return;
  const postgresStack = await startStack({ port: await freePort(), keys: testKeys, databaseUrl: database.url });
  try {
    await documentTransfer("PostgreSQL 15 via the local stack", postgresStack.url);
  } finally {
    await postgresStack.stop();
    await database.drop();
  }
}

/** The customers module on PostgreSQL: a stack over a fresh seeded database (DATABASE_URL mode). */
async function recordScaleOnPostgres(count: number): Promise<void> {
  const database = await seededPostgres("crm_bench_records", "customers at scale on PostgreSQL");
  if (!database) return;
  const postgresStack = await startStack({ port: await freePort(), keys: testKeys, databaseUrl: database.url });
  try {
    await recordScale("PostgreSQL 15 via the local stack", postgresStack.url, postgresStack.backend.sql, count);
    await pipelineScale("PostgreSQL 15 via the local stack", postgresStack.url, postgresStack.backend.sql,
      Number(process.env.BENCH_DEALS ?? 200_000), Number(process.env.BENCH_TASKS ?? 500_000));
  } finally {
    await postgresStack.stop();
    await database.drop();
  }
}

/**
 * The header's search (issue 25) on PostgreSQL 15 via the local stack: the demo organization
 * filled to `count` customers, search_records through the Data API as the demo admin (every
 * module the admin may view, 5 per module), beside raw SQL doing the plain version of the same
 * work: each searchable table's first 5 matches in Turkish title order, through its trigram
 * index. Goal: p95 <= 100 ms at 1,000,000 customers.
 */
async function headerSearchScale(count: number): Promise<void> {
  const database = await seededPostgres("crm_bench_search", "header search on PostgreSQL");
  if (!database) return;
  const stack = await startStack({ port: await freePort(), keys: testKeys, databaseUrl: database.url });
  try {
    const sql = stack.backend.sql;
    const [{ schema }] = (await sql.query(`select private.tenant_schema('${demoOrganizationId}') as schema`)) as { schema: string }[];
    const filled = performance.now();
    await fillCustomers(sql, schema, count);
    const fillSeconds = (performance.now() - filled) / 1000;
    const { client, session } = await signedInClient(stack.url, "admin@demo.test");
    // The same call in SQL, in one session with the request's claims (what the Data API adds is the difference).
    const claims = JSON.parse(Buffer.from(session.access_token.split(".")[1], "base64url").toString()) as { sub: string };
    const direct = postgres(database.url, { max: 1, onnotice: () => {} });
    await direct`select set_config('request.jwt.claim.sub', ${claims.sub}, false), set_config('request.jwt.claims', ${JSON.stringify(claims)}, false)`;
    const searchInSql = (query: string) => direct`select public.search_records(${query}, 5)`;
    const search = async (query: string) => {
      const { data, error } = await client.rpc("search_records", { p_query: query, p_limit: 5 });
      if (error || !(data as { success?: boolean })?.success) throw new Error(`search_records: ${error?.message ?? JSON.stringify(data)}`);
      return data as { groups: { module: string; items: unknown[] }[] };
    };
    const tables = (await sql.query(`select table_name, title_columns[1] as title from private.modules where searchable order by position`)) as {
      table_name: string;
      title: string;
    }[];
    const raw = (pattern: string) =>
      sql.query(
        tables
          .map(({ table_name, title }) =>
            `(select '${table_name}' as module, id, "${title}"::text as title from "${schema}"."${table_name}" t
               where deleted_at is null and search_text like $1 order by private.turkish_sort_key("${title}") collate "C", id limit 5)`)
          .join(" union all "),
        [pattern],
      );
    // [name, query, runs of the raw baseline]: sorting every match of a broad search takes seconds a run.
    const cases: [string, (run: number) => string, number][] = [
      ["'isik' (a tenth of the customers match)", () => "isik", 10],
      ["'yazilim 12' (about 1,100 match)", (run) => `yazilim ${12 + (run % 50)}`, 100],
      ["'is' (two letters, a third match)", () => "is", 100],
      ["a quote by part of its number", () => "tkl-2026-0000", 100],
      ["'zzqx' (nothing matches)", () => "zzqx", 100],
    ];
    const runs = 100;
    const pairs: [Sample, Sample][] = [];
    const inSql: [Sample, Sample][] = [];
    for (const [name, query, rawRuns] of cases) {
      const api = await measure(`header search ${name}`, runs, (run) => search(query(Math.max(run, 0))));
      pairs.push([api, await measure("  raw SQL (5 per table, trigram index)", rawRuns, (run) => raw(`%${query(Math.max(run, 0))}%`), 1)]);
      inSql.push([api, await measure("  search_records in SQL (one session)", runs, (run) => searchInSql(query(Math.max(run, 0))))]);
    }
    // The Data API's fixed cost: a query too short to search answers at once.
    const floor = await measure("too short a query (the Data API's floor)", runs, async () => await client.rpc("search_records", { p_query: "x", p_limit: 5 }));
    inSql.push([floor, await measure("  search_records in SQL (one session)", runs, () => searchInSql("x"))]);
    await direct.end();
    const quotes = (await search("tkl-2026-0000")).groups.find((group) => group.module === "quotes")?.items.length ?? 0;
    if (quotes === 0) throw new Error("the header search found no quote by part of its number");
    printPairs(`header search (PostgreSQL 15 via the local stack, ${count.toLocaleString("en")} customers in one organization; filled in ${fillSeconds.toFixed(0)} s; goal p95 <= 100 ms)`, pairs);
    printPairs("header search: the Data API beside the same call in SQL", inSql);
  } finally {
    await stack.stop();
    await database.drop();
  }
}

/** The in-memory stack: requests, the front end, the customers at 100,000 rows, a burst of bad logins. */
async function stackRequests(): Promise<void> {
  const bootStarted = performance.now();
  const stack = await startStack({ port: await freePort(), keys: testKeys, seed: true, serveApp: true });
  const bootMs = performance.now() - bootStarted;
  // The sign-in timings below sign the same accounts in ~100 times in seconds, more than
  // the per-account rate of right passwords lets a person (it would answer 429).
  await stack.backend.sql.query("update private.security_settings set account_success_limit = 100000");

  try {
    const { client, session } = await signedInClient(stack.url, "admin@demo.test");
    // The list as Satış Müdürü (mudur@), who sees the whole organization, as the raw page does.
    const { client: managerClient } = await signedInClient(stack.url, "mudur@demo.test");
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
        const { error } = await managerClient.rpc("list_customers", { p_limit: 25 });
        if (error) throw new Error(error.message);
      }),
      await measure("the same page, raw SQL on the tenant table", 200, () =>
        stack.backend.sql.query(
          `select id, name, owner_id, created_at, count(*) over () from "${schema}".customers
            where deleted_at is null order by ${byName} limit 25`,
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
      await page.getByRole("button", { name: "Giriş yap" }).click();
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
    await recordScale("in-memory PGlite", stack.url, stack.backend.sql, Number(process.env.BENCH_PGLITE_CUSTOMERS ?? 100_000));
    await badLoginBurst(stack.url, stack.backend.sql);
  } finally {
    await stack.stop();
  }
}

/**
 * The PDF of a quote of `lines` lines at 20/10/0 % KDV, rendered in Node by the app's own
 * renderer (pdfmake with Roboto, the built-in body with the items, KDV and totals tables).
 * Goal: 2 s. The browser runs the same code (plus pdfmake's first load).
 */
async function pdfRendering(lines: number): Promise<void> {
  const rates = ["20", "10", "0"];
  const source: QuotePdfSource = {
    quote: {
      quote_number: "TKL-2026-00200", revision: 1, quote_date: "2026-01-15", valid_until: "2026-02-14", currency: "TRY",
      payment_terms: "Fatura tarihinden itibaren 30 gün", notes: "Çalışma saatleri içinde kurulum", owner_name: "Şükrü Öztürk",
    },
    items: Array.from({ length: lines }, (_, index) => ({
      position: index + 1, description: `Ürün ${index + 1}: Güneş paneli bağlantı kiti (İstanbul deposu)`, quantity: "3", unit: "adet",
      unit_price: "1250.00", discount_type: "percent", discount_value: "5", vat_rate: rates[index % 3],
      line_net: "3562.50", line_vat: ["712.50", "356.25", "0.00"][index % 3], line_gross: ["4275.00", "3918.75", "3562.50"][index % 3],
    })),
    totals: {
      gross_total: "750000.00", line_discount_total: "37500.00", document_discount_total: "0.00", net_total: "712500.00",
      vat_breakdown: [{ rate: "20", base: "238687.50", vat: "47737.50" }, { rate: "10", base: "237450.00", vat: "23745.00" }, { rate: "0", base: "236362.50", vat: "0.00" }],
      vat_total: "71482.50", withholding_total: "0.00", grand_total: "783982.50", grand_total_try: "783982.50",
    },
    customer: { name: "Anadolu Yapı Malzemeleri Ltd. Şti.", tax_number: "9876543210", tax_office: "Kadıköy", address: "Atatürk Cad. No: 12" },
    contact: { name: "Zeynep Kaya", email: "zeynep@anadoluyapi.com.tr" },
  };
  const input = quotePdfInput(source, { name: "Demo Ticaret A.Ş.", address: "Büyükdere Cad. No: 185, Şişli, İstanbul" });
  let bytes = 0;
  const sample = await measure(`PDF of a ${lines}-line quote (Node, pdfmake)`, 20, async () => {
    bytes = (await renderDocumentPdfBytes(input, null)).length;
  }, 3);
  console.log(`
PDF rendering (goal: p95 <= 2000 ms; ${(bytes / 1024).toFixed(0)} KiB per document)`);
  console.log("work".padEnd(46), "p50 ms".padStart(9), "p95 ms".padStart(9), "runs".padStart(6));
  console.log(sample.name.padEnd(46), sample.p50.toFixed(2).padStart(9), sample.p95.toFixed(2).padStart(9), String(sample.runs).padStart(6));
}

/**
 * Import at scale (issue 14) on PostgreSQL 15 through the local stack, as the page does it:
 * start_import, then `rows` customers in batches of importLimits.batchRows through run_import_batch, two on
 * their way at once as the page sends them (each row
 * checked by the customers' own rules, matched on the VKN, written set-based), finish_import.
 * Beside it, in the same run, a raw COPY of the same rows into the same table with the same
 * indexes (then removed again). Goal: the import at least 50% of COPY's rows per second.
 * (The export's figures: the section "exports", scripts/bench/exports.ts.)
 */
async function importsOnPostgres(rows: number): Promise<void> {
  const database = await seededPostgres("crm_bench_imports", "imports on PostgreSQL");
  if (!database) return;
  const stack = await startStack({ port: await freePort(), keys: testKeys, databaseUrl: database.url });
  const direct = postgres(database.url, { max: 1, onnotice: () => {} });
  try {
    const sql = stack.backend.sql;
    const [{ schema }] = (await sql.query(`select private.tenant_schema('${demoOrganizationId}') as schema`)) as { schema: string }[];
    const { client } = await signedInClient(stack.url, "admin@demo.test");
    // A refusal throws with its code (run_import_batch's batch_out_of_order goes again).
    const call = (name: string, args: Record<string, unknown>) => rpcSuccess(client, name, args);
    const random = seededRandom(20261123);
    const cities = ["İstanbul", "Ankara", "İzmir", "Bursa", "Antalya", "Eskişehir"];
    const values = Array.from({ length: rows }, (_, index) => ({
      name: `${["Işık", "Çelik", "Öztürk", "Güneş", "Ağaoğlu"][index % 5]} Aktarım ${index + 1} ${["A.Ş.", "Ltd. Şti."][index % 2]}`,
      kind: "company",
      tax_number: randomValidVkn(random),
      city: cities[index % cities.length],
      email: `aktarim${index + 1}@ornek.com.tr`,
      phone: `+90532${String(index).padStart(7, "0")}`,
      status: "active",
    }));
    const [{ admin }] = (await sql.query(`select id as admin from auth.users where email = 'admin@demo.test'`)) as { admin: string }[];

    // COPY first, into the same table and indexes; the rows go again before the import.
    const copyStarted = performance.now();
    const writable = await direct`copy ${direct(schema)}.customers (name, kind, tax_number, city, email, phone, status, owner_id, created_by) from stdin`.writable();
    const escape = (text: string) => text.replace(/[\\\t\n\r]/g, (character) => ({ "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" })[character]!);
    await pipeline(
      Readable.from(values.map((row) => [row.name, row.kind, row.tax_number, row.city, row.email, row.phone, row.status, admin, admin].map(escape).join("\t") + "\n")),
      writable,
    );
    const copySeconds = (performance.now() - copyStarted) / 1000;
    await sql.query(`delete from "${schema}".customers where email like 'aktarim%@ornek.com.tr'`);
    await sql.query(`vacuum analyze "${schema}".customers`);

    const importStarted = performance.now();
    const started = await call("start_import", {
      p_kind: "customers", p_file_name: "bench.csv", p_file_size: rows * 100, p_file_hash: "0".repeat(64),
      p_mode: "upsert", p_match_key: "tax_number", p_total_rows: rows, p_mapping: {},
    });
    const importId = (started.import as { id: string }).id;
    let created = 0;
    const size = importLimits.batchRows;
    // As the page sends them: the page's runner, two batches on their way at once.
    await runBatches({
      batches: Array.from({ length: Math.ceil(rows / size) }, (_, number) => ({ number, start: number * size, end: Math.min(rows, (number + 1) * size) })),
      send: async (batch) => {
        const slice = values.slice(batch.start, batch.end).map((row, index) => ({ row: batch.start + index + 2, values: row }));
        return rpcSuccess<{ created: number; updated: number }>(client, "run_import_batch", { p_import_id: importId, p_batch: batch.number, p_rows: slice });
      },
      // A random VKN may repeat among 100,000 (a handful do): the repeat updates the first.
      onAnswer: (_batch, answer) => (created += answer.created + answer.updated),
      signal: new AbortController().signal,
      isLostConnection: () => false,
      waitsForPrevious: (error) => (error as { code?: string }).code === "batch_out_of_order",
      inFlight: BATCHES_IN_FLIGHT,
    });
    await call("finish_import", { p_import_id: importId });
    const importSeconds = (performance.now() - importStarted) / 1000;
    if (created !== rows) throw new Error(`the import wrote ${created} of ${rows} customers`);

    const rate = (count: number, seconds: number) => Math.round(count / seconds).toLocaleString("en");
    console.log(`\nimport of ${rows.toLocaleString("en")} customers (PostgreSQL 15 via the local stack; goal: import >= 50% of COPY's rows/s)`);
    console.log("work".padEnd(58), "seconds".padStart(9), "rows/s".padStart(10));
    console.log(`import: run_import_batch, ${size.toLocaleString("en")} rows a call (end to end)`.padEnd(58), importSeconds.toFixed(1).padStart(9), rate(rows, importSeconds).padStart(10));
    console.log("  raw COPY of the same rows, same table and indexes".padEnd(58), copySeconds.toFixed(1).padStart(9), rate(rows, copySeconds).padStart(10));
    console.log(`  the import reaches ${((copySeconds / importSeconds) * 100).toFixed(0)}% of COPY's rows/s`);
  } finally {
    await direct.end();
    await stack.stop();
    await database.drop();
  }
}

/**
 * The browser's parse of a `rows`-row customer CSV (Turkish headers, ';', UTF-8 with BOM):
 * the import page's parser (src/lib/spreadsheet/parse.ts, bundled as the app bundles it)
 * run in headless Chromium, bytes already in memory. Goal (issue 14): under 3 s at 100,000 rows.
 */
async function browserParse(rows: number): Promise<void> {
  const output = (await build({
    configFile: false, logLevel: "silent", resolve: { alias: { "@": `${process.cwd()}/src` } },
    build: { write: false, minify: true, lib: { entry: "src/lib/spreadsheet/parse.ts", formats: ["iife"], name: "spreadsheet" } },
  })) as { output: { type: string; code?: string }[] }[];
  const script = output[0].output.find((chunk) => chunk.type === "chunk")!.code!;
  const csv = Buffer.from("\uFEFF" + makeCustomerCsv(rows), "utf8");
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const page = await browser.newPage();
    // A page on localhost: a secure context, as the app is, so crypto.subtle (the file's hash) exists.
    await page.route("http://localhost/parse", (route) => route.fulfill({ contentType: "text/html", body: "<!doctype html><title>parse</title>" }));
    await page.goto("http://localhost/parse");
    await page.addScriptTag({ content: script });
    const times: number[] = [];
    for (let run = 0; run < 5; run++) {
      times.push(await page.evaluate(async (base64) => {
        const bytes = Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
        const started = performance.now();
        const parsed = await (globalThis as unknown as { spreadsheet: { parseSpreadsheetBytes(bytes: Uint8Array): Promise<{ rows: unknown[] }> } })
          .spreadsheet.parseSpreadsheetBytes(bytes);
        if (parsed.rows.length === 0) throw new Error("nothing parsed");
        return performance.now() - started;
      }, csv.toString("base64")));
    }
    const sample = summarise(`parse of a ${rows.toLocaleString("en")}-row CSV (${(csv.length / 1048576).toFixed(1)} MB) in Chromium`, times);
    console.log(`\nbrowser parse (goal: under 3,000 ms at 100,000 rows)`);
    console.log("work".padEnd(58), "p50 ms".padStart(9), "p95 ms".padStart(9), "runs".padStart(6));
    console.log(sample.name.padEnd(58), sample.p50.toFixed(0).padStart(9), sample.p95.toFixed(0).padStart(9), String(sample.runs).padStart(6));
  } finally {
    await browser.close();
  }
}

/** The sections in run order. */
/**
 * Backup and restore at scale (issue 15): the demo organization filled to `rows` customers on
 * PostgreSQL 15. `npm run db:backup`'s work (writeBackup) beside pg_dump of the same database
 * (plain format, the raw baseline); `npm run db:restore`'s work (restoreBackup) into a fresh
 * database with the migrations beside psql loading pg_dump's file into an empty one; then
 * the same backup restored into, and taken again from, a fresh embedded database. One run
 * each: minutes at 1,000,000 rows.
 */
async function backupScale(rows: number): Promise<void> {
  const database = await seededPostgres("crm_bench_backup", "backup and restore");
  if (!database) return;
  const scratch = mkdtempSync(join(tmpdir(), "crm-bench-backup-"));
  const databases = [database];
  const source = await openSqlConnection({ databaseUrl: database.url });
  const megabytes = (file: string) => `${(statSync(file).size / 2 ** 20).toFixed(0)} MB`;
  const shell = (command: string, args: string[]) => {
    const run = spawnSync(command, args, { encoding: "utf8" });
    if (run.status !== 0) throw new Error(`${command} failed: ${run.stderr}`);
  };
  try {
    const [{ schema }] = await source.sql.query<{ schema: string }>("select private.tenant_schema($1) as schema", [demoOrganizationId]);
    await fillCustomers(source.sql, schema, rows);
    const [{ total }] = await source.sql.query<{ total: number }>("select count(*)::int as total from private.organizations");
    const file = join(scratch, "backup.tar.gz");
    const dump = join(scratch, "pg_dump.sql");
    const objects = new FileStorage(join(scratch, "source-storage"));
    const backupMs = await timed(() => writeBackup({ sql: source.sql, storage: objects, description: "PostgreSQL" }, file));
    const dumpMs = await timed(async () => shell("pg_dump", ["--no-owner", "--file", dump, database.url]));

    const target = await createTestDatabase({ prefix: "crm_bench_restore" });
    databases.push(target);
    const empty = await createTestDatabase({ prefix: "crm_bench_psql" });
    databases.push(empty);
    const backup = await openBackup(file);
    const connection = await openSqlConnection({ databaseUrl: target.url });
    const restoreMs = await timed(() => restoreBackup(backup, connection.sql, { kind: "files", storage: new FileStorage(join(scratch, "pg-storage")) }));
    await connection.close();
    // psql's baseline needs an empty database: the one createTestDatabase prepared is emptied first (not timed).
    shell("psql", ["--quiet", "--dbname", empty.url, "--command", "drop schema if exists auth, storage, private, public, supabase_migrations cascade; create schema public"]);
    const psqlMs = await timed(async () => shell("psql", ["--quiet", "--dbname", empty.url, "--file", dump, "--output", "/dev/null"]));

    const pglite = await openBackend({ dataDir: join(scratch, "pglite"), storageDir: join(scratch, "pglite-storage") }, testKeys);
    const pgliteRestoreMs = await timed(() => restoreBackup(backup, pglite.sql, { kind: "files", storage: pglite.storage }));
    const again = join(scratch, "again.tar.gz");
    const pgliteBackupMs = await timed(() => writeBackup({ sql: pglite.sql, storage: pglite.storage, description: "PGlite" }, again));
    await pglite.close();
    await backup.dispose();

    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`.padStart(9);
    console.log(`
backup and restore: ${rows.toLocaleString("en")} customers in one of ${total} organizations (${Object.values(backup.manifest.rows).reduce((a, b) => a + b, 0).toLocaleString("en")} rows in all)`);
    console.log(`npm run db:backup's work, PostgreSQL      ${seconds(backupMs)}  ${megabytes(file)}   ${(backupMs / dumpMs).toFixed(1)}x pg_dump`);
    console.log(`pg_dump (plain SQL, baseline)            ${seconds(dumpMs)}  ${megabytes(dump)}`);
    console.log(`npm run db:restore's work, PostgreSQL    ${seconds(restoreMs)}             ${(restoreMs / psqlMs).toFixed(1)}x psql`);
    console.log(`psql loading pg_dump's file (baseline)   ${seconds(psqlMs)}`);
    console.log(`restore into a fresh embedded database   ${seconds(pgliteRestoreMs)}`);
    console.log(`backup of that embedded database         ${seconds(pgliteBackupMs)}  ${megabytes(again)}`);
  } finally {
    await source.close();
    for (const each of databases) await each.drop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

const sections: { name: string; postgresOnly: boolean; run: () => Promise<void> }[] = [
  { name: "pdf", postgresOnly: false, run: () => pdfRendering(200) },
  { name: "stack", postgresOnly: false, run: stackRequests },
  { name: "data-api", postgresOnly: false, run: dataApiBench },
  { name: "records", postgresOnly: true, run: () => recordScaleOnPostgres(Number(process.env.BENCH_CUSTOMERS ?? 1_000_000)) },
  { name: "quotes", postgresOnly: true, run: quotesOnPostgres },
  { name: "search", postgresOnly: true, run: () => headerSearchScale(Number(process.env.BENCH_CUSTOMERS ?? 1_000_000)) },
  { name: "link-sort", postgresOnly: true, run: () => linkSortScale({ seededPostgres, measure, printPairs, fillCustomers }, [5_000, 100_000]) },
  { name: "documents", postgresOnly: false, run: documentTransferOnBothBackends },
  { name: "imports", postgresOnly: true, run: () => importsOnPostgres(Number(process.env.BENCH_IMPORT_ROWS ?? 100_000)) },
  { name: "custom-fields", postgresOnly: true, run: () => customFieldScale({ seededPostgres, measure, printPairs, fillCustomers }, Number(process.env.BENCH_CUSTOMERS ?? 1_000_000)) },
  { name: "exports", postgresOnly: true, run: () => exportScale({ seededPostgres, fillCustomers }, Number(process.env.BENCH_EXPORT_ROWS ?? 100_000)) },
  { name: "parse", postgresOnly: false, run: () => browserParse(Number(process.env.BENCH_IMPORT_ROWS ?? 100_000)) },
  { name: "organizations", postgresOnly: false, run: () => organizationScale(Number(process.env.BENCH_ORGANIZATIONS ?? 3000)) },
  { name: "backup", postgresOnly: true, run: () => backupScale(Number(process.env.BENCH_BACKUP_ROWS ?? 1_000_000)) },
];
const only = process.env.BENCH_ONLY?.split(",").map((name) => name.trim()).filter(Boolean);
const unknown = only?.filter((name) => name !== "postgres" && !sections.some((section) => section.name === name)) ?? [];
if (unknown.length > 0) throw new Error(`BENCH_ONLY names unknown sections: ${unknown.join(", ")}`);
for (const section of sections) {
  if (!only || only.includes(section.name) || (section.postgresOnly && only.includes("postgres"))) await section.run();
}
