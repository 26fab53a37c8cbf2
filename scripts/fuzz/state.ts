/**
 * What the fuzzer watches in the database (as the stack's superuser): a checksum per table
 * of every organization's schema and of the control tables, and each organization's record
 * ids (to notice one in another organization's answer).
 */
import { backedUpTables } from "../stack/backup.ts";
import type { SqlRunner } from "../stack/database.ts";

/**
 * Control tables that record a refused attempt by design, left out of "a refusal changes
 * nothing": sign-in bookkeeping (the lockout counts failures), the request tokens a call
 * uses up, and the organization a session is bound to.
 */
export const bookkeepingTables = ["private.login_attempts", "private.login_throttles", "private.login_proofs", "private.request_tokens", "private.session_organizations"];

/** Columns of a control table that count refused attempts by design (the lockout), left out of its checksum. */
export const bookkeepingColumns: Record<string, string[]> = {
  "private.profiles": ["failed_login_attempts", "last_failed_attempt", "locked_until", "updated_at"],
};

export interface Organization {
  id: string;
  slug: string;
  schema: string;
}

export interface Watched {
  organizations: Organization[];
  /** table → checksum (a sum of row hashes and the row count). */
  checksum(): Promise<Map<string, string>>;
  /** Each organization's record ids (its schema's id columns). */
  recordIds: Map<string, Set<string>>;
}

export async function watch(sql: SqlRunner): Promise<Watched> {
  const organizations = (await sql.query(
    "select id::text, slug, schema_name as schema from private.organizations where schema_name is not null order by slug",
  )) as Organization[];
  // Every table a backup holds (the control tables, every organization's, the accounts, Storage's).
  const tables = await backedUpTables(sql.query);
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
  const checksumSql = tables
    .filter((table) => !bookkeepingTables.includes(table.name))
    .map((table) => {
      const row = table.name in bookkeepingColumns ? `(to_jsonb(x) - '{${bookkeepingColumns[table.name].join(",")}}'::text[])::text` : "x::text";
      return `select '${table.name}' as name, coalesce(sum(hashtext(${row})::bigint), 0)::text || '/' || count(*) as sum from ${quote(table.schema)}.${quote(table.table)} x`;
    })
    .join(" union all ");

  const recordIds = new Map<string, Set<string>>();
  for (const organization of organizations) {
    const withIds = (await sql.query(
      `select c.relname as table from pg_class c join pg_namespace n on n.oid = c.relnamespace
        join pg_attribute a on a.attrelid = c.oid and a.attname = 'id' and a.atttypid = 'uuid'::regtype
       where n.nspname = $1 and c.relkind = 'r'`,
      [organization.schema],
    )) as { table: string }[];
    const ids = new Set<string>();
    for (const { table } of withIds) {
      for (const row of (await sql.query(`select id::text from ${quote(organization.schema)}.${quote(table)}`)) as { id: string }[]) ids.add(row.id);
    }
    recordIds.set(organization.id, ids);
  }

  return {
    organizations,
    recordIds,
    async checksum() {
      const rows = (await sql.query(checksumSql)) as { name: string; sum: string }[];
      return new Map(rows.map((row) => [row.name, row.sum]));
    },
  };
}

/** The tables whose checksum differs. */
export function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...new Set([...before.keys(), ...after.keys()])].filter((name) => before.get(name) !== after.get(name));
}
