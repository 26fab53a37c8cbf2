/**
 * What the fuzzer calls, read from the running product rather than listed by hand: every
 * function of the public schema an API role may execute (the Data API's RPCs, with their
 * argument names and types) and every Edge Function folder. A new RPC or function is
 * covered without editing the fuzzer.
 */
import { readdirSync } from "node:fs";
import type { SqlRunner } from "../stack/database.ts";
import { projectRoot } from "../stack/env.ts";

export interface RpcArgument {
  name: string;
  /** The argument's type as PostgreSQL names it (uuid, text, integer, jsonb, text[], …). */
  type: string;
  /** Whether the call may leave it out (it has a default). */
  optional: boolean;
}

export interface RpcTarget {
  kind: "rpc";
  name: string;
  args: RpcArgument[];
  /** Whether anon may execute it (else only authenticated). */
  anon: boolean;
}

export interface EdgeTarget {
  kind: "edge";
  name: string;
}

export type Target = RpcTarget | EdgeTarget;

/** The public schema's functions the API roles may execute, one entry per overload. */
export async function publicRpcs(sql: SqlRunner): Promise<RpcTarget[]> {
  const rows = (await sql.query(`
    select p.proname as name,
           has_function_privilege('anon', p.oid, 'execute') as anon,
           coalesce((select json_agg(json_build_object('name', a.name, 'type', format_type(a.type, null),
                                                       'optional', a.position > p.pronargs - p.pronargdefaults) order by a.position)
                       from unnest(p.proargnames[1:p.pronargs], p.proargtypes::oid[]) with ordinality a (name, type, position)), '[]') as args
      from pg_proc p
      join pg_namespace n on n.oid = p.pronamespace
     where n.nspname = 'public' and p.prokind = 'f'
       and (has_function_privilege('anon', p.oid, 'execute') or has_function_privilege('authenticated', p.oid, 'execute'))
     order by p.proname, p.oid`)) as { name: string; anon: boolean; args: RpcArgument[] | string }[];
  return rows.map((row) => ({
    kind: "rpc",
    name: row.name,
    anon: row.anon,
    args: typeof row.args === "string" ? (JSON.parse(row.args) as RpcArgument[]) : row.args,
  }));
}

/** Every Edge Function (a folder of supabase/functions other than _shared). */
export function edgeFunctions(): EdgeTarget[] {
  return readdirSync(`${projectRoot}supabase/functions`, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith("_"))
    .map((entry) => ({ kind: "edge", name: entry.name }));
}
