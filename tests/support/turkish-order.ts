import { randomUUID } from "node:crypto";
import { rpc, type CrmClient } from "./clients.ts";
import { shuffledTurkishNames } from "./turkish-names.ts";

/**
 * Creates a customer for each of the tricky Turkish names (shuffled, each ending in one
 * fresh word so a search finds only them) and answers their names as list_customers
 * gives them sorted by name, ascending and descending, without that word.
 */
export async function customerNamesSortedByName(client: CrmClient): Promise<{ ascending: string[]; descending: string[] }> {
  const word = `sira${randomUUID().slice(0, 8)}`;
  for (const name of shuffledTurkishNames()) {
    const created = await rpc(client, "create_customer", { p_values: { name: `${name} ${word}` } });
    if (!created.success) throw new Error(`Creating the customer "${name}" failed: ${JSON.stringify(created)}`);
  }
  const names = async (descending: boolean) => {
    const page = await rpc(client, "list_customers", { p_search: word, p_sort: "name", p_descending: descending, p_limit: 100 });
    return (page.records as { name: string }[]).map((record) => record.name.slice(0, -word.length - 1));
  };
  return { ascending: await names(false), descending: await names(true) };
}
