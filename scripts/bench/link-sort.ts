/**
 * A list sorted by a linked record's name (issue 25): the demo organization's contacts sorted
 * by their customer's name (list_contacts, p_sort customer_id) through the Data API as the
 * demo admin, at 5,000 and 100,000 contacts (as many customers, each contact linked to one,
 * every tenth without a customer): the first page, the tenth page and the first page
 * descending. Beside raw SQL: the same page as a plain join walking the customers' Turkish
 * sort index. Goal: no slower than a list sorted by the contact's own name (p95 <= 50 ms).
 * Registered in scripts/bench.ts as the section "link-sort".
 */
import type postgres from "postgres";
import { withDemoStack, type BenchTools, type Sample } from "./demo-stack.ts";

/** Fills the demo organization's contacts up to `count`, each linked to a customer (every tenth to none). */
async function fillContacts(sql: postgres.Sql, schema: string, count: number) {
  const [{ existing }] = await sql.unsafe(`select count(*)::int as existing from "${schema}".contacts`);
  await sql.unsafe(
    `insert into "${schema}".contacts (first_name, last_name, customer_id, owner_id, created_by)
     select (array['Ayşe','Çağrı','Işıl','Ömer','Şule','Ümit','Deniz','Can'])[1 + c.n % 8], 'Kişi ' || c.n,
            case when c.n % 10 <> 7 then c.id end, c.owner_id, c.owner_id
       from (select id, owner_id, row_number() over (order by id) as n from "${schema}".customers where deleted_at is null) c
      where c.n <= $1`,
    [count - existing],
  );
  await sql.unsafe(`vacuum analyze "${schema}".contacts`);
  await sql.unsafe(`analyze "${schema}".customers`);
}

export async function linkSortScale(tools: BenchTools, sizes: number[]): Promise<void> {
  await withDemoStack(tools, "crm_bench_link_sort", "sort by a linked record's name", async ({ sql, schema, client, fillCustomers }) => {
    const list = async (sort: string, descending: boolean, offset: number) => {
      const { data, error } = await client.rpc("list_contacts", {
        p_filters: {}, p_sort: sort, p_descending: descending, p_limit: 50, p_offset: offset,
      });
      if (error || !(data as { success?: boolean }).success) throw new Error(`list_contacts: ${error?.message ?? JSON.stringify(data)}`);
      return (data as { records: { customer_name: string | null }[] }).records;
    };
    const raw = (descending: boolean, offset: number) =>
      sql.unsafe(
        `select t.*, n.name as customer_name from "${schema}".contacts t join "${schema}".customers n on n.id = t.customer_id and n.deleted_at is null
          where t.deleted_at is null
          order by private.turkish_sort_key(n.name) collate "C" ${descending ? "desc" : "asc"}, t.id ${descending ? "desc" : "asc"}
          limit 50 offset ${offset}`,
      );
    for (const size of sizes) {
      await fillCustomers(size);
      await fillContacts(sql, schema, size);
      const first = await list("customer_id", false, 0);
      if (first.length !== 50 || first.some((row) => row.customer_name === null)) throw new Error("the first page sorted by customer has rows without a customer");
      const runs = 50;
      const pairs: [Sample, Sample][] = [];
      for (const [name, descending, offset] of [["first page", false, 0], ["tenth page", false, 450], ["first page, descending", true, 0]] as const) {
        pairs.push([
          await tools.measure(`contacts by customer name, ${name}`, runs, () => list("customer_id", descending, offset)),
          await tools.measure("  raw SQL (join on the sort index)", runs, () => raw(descending, offset)),
        ]);
      }
      pairs.push([
        await tools.measure("contacts by their own last name (for scale)", runs, () => list("last_name", false, 0)),
        await tools.measure("  raw SQL (join on the sort index)", runs, () => raw(false, 0)),
      ]);
      tools.printPairs(`sort by a linked record's name (PostgreSQL 15 via the local stack, ${size.toLocaleString("en")} contacts and customers)`, pairs);
    }
  });
}
