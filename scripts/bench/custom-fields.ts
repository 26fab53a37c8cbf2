/**
 * Custom fields at scale (issue 26): the demo organization filled to `rows` customers on
 * PostgreSQL 15; through the Data API as the demo admin, save_custom_field adds a one-choice
 * field (filterable: its column and its index) and a number field (not filterable: the column
 * only), each timed once; then, after every customer is given values, list_customers filtered
 * by the choice and by a range of the number, sorted by name, beside raw SQL doing the same
 * page on the same index. Registered in scripts/bench.ts as the section "custom-fields";
 * BENCH_CUSTOMERS changes the scale (1,000,000).
 */
import { performance } from "node:perf_hooks";
import { rpcSuccess } from "../../tests/support/clients.ts";
import { withDemoStack, type BenchTools, type Sample } from "./demo-stack.ts";

export async function customFieldScale(tools: BenchTools, rows: number): Promise<void> {
  await withDemoStack(tools, "crm_bench_custom_fields", "custom fields at scale", async ({ sql, schema, client, fillCustomers }) => {
    await fillCustomers(rows);

    const timedSave = async (field: Record<string, unknown>) => {
      const started = performance.now();
      const answer = await rpcSuccess<{ field: { key: string } }>(client, "save_custom_field", { p_module: "customers", p_field: field });
      return { key: answer.field.key, ms: performance.now() - started };
    };
    const choice = await timedSave({
      label_tr: "Sektör kodu", type: "choice", filterable: true, listed: true,
      options: ["A", "B", "C"].map((value) => ({ value, label_tr: value, label_en: null, color: null })),
    });
    const number = await timedSave({ label_tr: "Bayi no", type: "number", listed: true });
    const filterableNumber = await timedSave({ key: number.key, label_tr: "Bayi no", type: "number", listed: true, filterable: true });

    // Values on every customer (a third each A, B, C; dealer numbers 1..rows), then a settled table.
    const filled = performance.now();
    await sql.unsafe(`update "${schema}".customers set "${choice.key}" = (array['A','B','C'])[1 + abs(hashtext(id::text)) % 3],
                                                     "${number.key}" = abs(hashtext(id::text)) % 100000`);
    await sql.unsafe(`vacuum analyze "${schema}".customers`);
    const fillSeconds = (performance.now() - filled) / 1000;

    const list = (filters: Record<string, unknown>) => async () => {
      const page = await rpcSuccess<{ records: unknown[] }>(client, "list_customers", {
        p_filters: filters, p_sort: "name", p_descending: false, p_limit: 50, p_offset: 0,
      });
      if (page.records.length !== 50) throw new Error(`a filtered page held ${page.records.length} rows`);
    };
    const raw = (condition: string) => () =>
      sql.unsafe(`select t.* from "${schema}".customers t where t.deleted_at is null and ${condition}
                   order by private.turkish_sort_key(t.name) collate "C", t.id limit 50`);
    const runs = 40;
    const pairs: [Sample, Sample][] = [
      [
        await tools.measure("list by name, filtered by the choice (B)", runs, list({ [choice.key]: ["B"] })),
        await tools.measure("  raw SQL, the same page", runs, raw(`t."${choice.key}" = 'B'`)),
      ],
      [
        await tools.measure("list by name, the number 1,000-1,100", runs, list({ [number.key]: { from: 1000, to: 1100 } })),
        await tools.measure("  raw SQL, the same page", runs, raw(`t."${number.key}" >= 1000 and t."${number.key}" < 1100`)),
      ],
    ];
    console.log(`\ncustom fields at scale (PostgreSQL 15 via the local stack, ${rows.toLocaleString("en")} customers)`);
    console.log(`save_custom_field, a filterable one-choice field (column and index)   ${choice.ms.toFixed(0)} ms`);
    console.log(`save_custom_field, a number field (column only)                        ${number.ms.toFixed(0)} ms`);
    console.log(`save_custom_field, the number field made filterable (its index)        ${filterableNumber.ms.toFixed(0)} ms`);
    console.log(`(values given to every customer by SQL, then VACUUM ANALYZE: ${fillSeconds.toFixed(1)} s)`);
    tools.printPairs("lists filtered by a custom field", pairs);
  });
}
