/**
 * A whole export by key (issue 28): the demo organization filled to `rows` customers on
 * PostgreSQL 15, every one exported sorted by name through the Data API as the app does it
 * (export_records, 5,000 a page, each after the last page's next_cursor) as the demo admin.
 * Beside it, in the same run, raw SQL: the same pages of whole rows in the list's Turkish name
 * order by key (the floor), and by OFFSET (the old way: page N reads every row before it).
 * Goal: 20,000 rows/s through the Data API. One run each. Registered in scripts/bench.ts as
 * the section "exports"; BENCH_EXPORT_ROWS changes the scale (100,000).
 */
import { performance } from "node:perf_hooks";
import { rpcSuccess } from "../../tests/support/clients.ts";
import { withDemoStack, type BenchTools } from "./demo-stack.ts";

const PAGE = 5_000;

export async function exportScale(tools: Pick<BenchTools, "seededPostgres" | "fillCustomers">, rows: number): Promise<void> {
  await withDemoStack(tools, "crm_bench_exports", "exports by key", async ({ sql, schema, client, fillCustomers }) => {
    await fillCustomers(rows);
    const [{ total }] = await sql.unsafe(`select count(*)::int as total from "${schema}".customers where deleted_at is null`);

    const timedRun = async (work: () => Promise<number>) => {
      const started = performance.now();
      const count = await work();
      return { count, seconds: (performance.now() - started) / 1000 };
    };
    const dataApi = () =>
      timedRun(async () => {
        let count = 0;
        let cursor: unknown = null;
        do {
          const page = await rpcSuccess<{ records: unknown[]; next_cursor: unknown }>(client, "export_records", {
            p_module: "customers", p_sort: "name", p_descending: false, p_cursor: cursor, p_limit: PAGE,
          });
          count += page.records.length;
          cursor = page.next_cursor;
        } while (cursor !== null);
        return count;
      });
    // Whole rows (without the search column) with the owner's name, as the export gives them.
    const rowsSql = `select (to_jsonb(t) - 'search_text') || jsonb_build_object('owner_name', nullif(btrim(concat_ws(' ', p.first_name, p.last_name)), '')) as row,
                            private.turkish_sort_key(t.name) as key, t.id
                       from "${schema}".customers t left join private.profiles p on p.id = t.owner_id
                      where t.deleted_at is null`;
    const order = `order by private.turkish_sort_key(t.name) collate "C", t.id limit ${PAGE}`;
    const rawByKey = () =>
      timedRun(async () => {
        let count = 0;
        let last: { key: string; id: string } | null = null;
        for (;;) {
          const page: { key: string; id: string }[] = last
            ? await sql.unsafe(`${rowsSql} and (private.turkish_sort_key(t.name) collate "C", t.id) > ($1 collate "C", $2::uuid) ${order}`, [last.key, last.id])
            : await sql.unsafe(`${rowsSql} ${order}`);
          count += page.length;
          if (page.length < PAGE) return count;
          last = page[page.length - 1];
        }
      });
    const rawByOffset = () =>
      timedRun(async () => {
        let count = 0;
        for (let offset = 0; ; offset += PAGE) {
          const page = await sql.unsafe(`${rowsSql} ${order} offset ${offset}`);
          count += page.length;
          if (page.length < PAGE) return count;
        }
      });

    const results: [string, { count: number; seconds: number }][] = [
      [`export_records by name, ${PAGE.toLocaleString("en")} a page after next_cursor`, await dataApi()],
      ["  raw SQL, the same pages by key (floor)", await rawByKey()],
      ["  raw SQL, the same pages by OFFSET (the old way)", await rawByOffset()],
    ];
    for (const [name, result] of results) {
      if (result.count !== total) throw new Error(`${name.trim()}: ${result.count} rows of ${total}`);
    }
    const rate = ({ count, seconds }: { count: number; seconds: number }) => count / seconds;
    console.log(`\nexport of ${total.toLocaleString("en")} customers sorted by name (PostgreSQL 15 via the local stack; goal: 20,000 rows/s)`);
    console.log("work".padEnd(62), "seconds".padStart(9), "rows/s".padStart(10), "vs Data API".padStart(12));
    for (const [name, result] of results) {
      console.log(name.padEnd(62), result.seconds.toFixed(1).padStart(9), Math.round(rate(result)).toLocaleString("en").padStart(10),
        `${(rate(result) / rate(results[0][1])).toFixed(2)}x`.padStart(12));
    }
  });
}
