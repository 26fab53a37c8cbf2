/**
 * The difference between the declarative schema files (supabase/schemas, schema-files.ts)
 * and the migrations, as a migration: `npm run db:diff` (scripts/db-diff.ts).
 *
 * Two scratch databases are prepared like the stack (lite's system schemas and
 * platform.sql), one from the migrations, one from the schema files, and compared in
 * three parts:
 * - schema: DDL for the product's objects, from @supabase/pg-delta (a catalog-based diff
 *   engine: both sides are real databases read back from pg_catalog, never parsed SQL);
 * - reference data: the rows the product's own tables hold before anyone uses it (module
 *   registry, common passwords, settings, buckets), which declarative engines ignore;
 * - organization tables: one organization schema built through every template step against
 *   one built from supabase/tenant, turned into a new template step.
 * Whatever lite and platform.sql create is the same on both sides, so it never shows up.
 */
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { extract, type ExtractResult } from "@supabase/pg-delta/extract";
import { plan, type Plan } from "@supabase/pg-delta/plan";
import type { Policy } from "@supabase/pg-delta/policy";
import pg from "pg";
import postgres from "postgres";
import { migrationsDir } from "./database.ts";
import { runSqlFolder, schemasDir, tenantSchemasDir } from "./schema-files.ts";
import { createTestDatabase, type TestDatabase } from "./test-database.ts";

/** The three folders a diff reads; tests point them at temporary copies. */
export interface SchemaFolders {
  /** The product's schema files (NN_<concern>.sql), one script in filename order. */
  schemasDir: string;
  /** The organization schema's files, run as one template step. */
  tenantDir: string;
  migrationsDir: string;
}

/** The project's own folders. */
export const projectSchemaFolders: SchemaFolders = { schemasDir, tenantDir: tenantSchemasDir, migrationsDir };

/** What turns a database built from the migrations into one built from the schema files. */
export interface SchemaDifference {
  /** DDL statements for the product's objects (none: empty). */
  schema: string[];
  /** Settings the DDL statements need, as `set local` lines (search_path, check_function_bodies). */
  schemaPreamble: string[];
  /** insert/update/delete statements for the product's reference data. */
  data: string[];
  /** The new template step (an insert into private.tenant_template_steps), or null. */
  tenantStep: string | null;
}

/** True when the schema files and the migrations agree. */
export function isEmptyDifference(difference: SchemaDifference): boolean {
  return difference.schema.length === 0 && difference.data.length === 0 && difference.tenantStep === null;
}

const engineName = "@supabase/pg-delta 1.0.0-alpha.34";

// ---------------------------------------------------------------------------------
// Schema (DDL)
// ---------------------------------------------------------------------------------

/** The DDL turning one database into another, as pg-delta plans it. */
export interface DdlDifference {
  statements: string[];
  /** `set local` lines the statements assume. */
  preamble: string[];
}

async function extractDatabase(url: string): Promise<{ result: ExtractResult; roles: string[]; schemas: string[] }> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    const result = await extract(pool);
    const names = async (query: string) => (await pool.query<{ name: string }>(query)).rows.map((row) => row.name);
    return {
      result,
      roles: await names("select rolname as name from pg_catalog.pg_roles"),
      schemas: await names("select nspname as name from pg_catalog.pg_namespace"),
    };
  } finally {
    await pool.end();
  }
}

/**
 * The DDL that turns the database at `fromUrl` into the one at `toUrl`, for every object
 * of the database (or, with `onlySchema`, for the objects of that one schema).
 *
 * The plan is made at database scope: roles are the cluster's, shared by both databases
 * (both live on one server), so role objects and role settings are left out, and objects
 * owned by `postgres` (the applier on hosted Supabase) get no `OWNER TO` line.
 */
export async function diffDdl(fromUrl: string, toUrl: string, onlySchema?: string): Promise<DdlDifference> {
  const [from, to] = await Promise.all([extractDatabase(fromUrl), extractDatabase(toUrl)]);
  // pg-delta reports object kinds it does not model (casts, operators, text search
  // configurations, statistics objects...) instead of diffing them: a change there would
  // pass unseen, so any such object stops the diff.
  const unmodeled = [...from.result.diagnostics, ...to.result.diagnostics].filter((d) => d.code === "unmodeled_kind");
  if (unmodeled.length > 0) {
    throw new Error(`The schema diff engine cannot compare these objects: ${unmodeled.map((d) => d.message).join("; ")}`);
  }
  const options: Parameters<typeof plan>[2] = {
    scope: "database",
    defaultOwner: "postgres",
    assumedRoles: [...new Set([...from.roles, ...to.roles])],
  };
  if (onlySchema) {
    const others = [...new Set([...from.schemas, ...to.schemas])].filter((name) => name !== onlySchema);
    options.policy = schemaOnlyPolicy(onlySchema, others);
  }
  const result = plan(from.result.factBase, to.result.factBase, options);
  return { statements: planStatements(result), preamble: result.preamble.map((entry) => `set local ${entry.name} = ${entry.value};`) };
}

/**
 * A pg-delta policy keeping one schema: the schema, its objects, and their comments and
 * grants. Everything else is left out of the diff, but the other schemas are "assumed":
 * what the kept objects use there (private.touch_updated_at, extensions.gin_trgm_ops)
 * counts as present instead of missing.
 */
function schemaOnlyPolicy(schema: string, otherSchemas: string[]): Policy {
  return {
    id: `only-${schema}`,
    assumedSchemas: otherSchemas,
    filter: [
      { match: { all: [{ kind: "schema" }, { name: schema }] }, action: "include" },
      { match: { schema }, action: "include" },
      { match: { target: { schema } }, action: "include" },
      { match: { all: [] }, action: "exclude" },
    ],
  };
}

function planStatements(result: Plan): string[] {
  const boundary = result.actions.find((action) => action.newSegmentBefore || action.transactionality === "nonTransactional");
  if (boundary) {
    // A migration runs in one transaction (locally and with the Supabase CLI alike).
    throw new Error(
      `The change needs a statement that cannot run in the same transaction as the rest (${firstLine(boundary.sql)}), ` +
        "for example a new enum value used in the same change: make that part first (edit the schema files, " +
        "generate and commit its migration), then the rest.",
    );
  }
  // pg-delta's view definitions end with their own semicolon, the other statements without.
  return result.actions.map((action) => (action.sql.trimEnd().endsWith(";") ? action.sql.trimEnd() : `${action.sql.trimEnd()};`));
}

function firstLine(text: string): string {
  return text.trim().split("\n")[0];
}

// ---------------------------------------------------------------------------------
// Reference data
// ---------------------------------------------------------------------------------

/** One column of a compared table. */
interface DataColumn {
  name: string;
  /** format_type() with search_path = pg_catalog, so every other schema is named. */
  type: string;
  key: boolean;
  identityAlways: boolean;
}

interface DataTable {
  id: string;
  qualifiedName: string;
  columns: DataColumn[];
}

/**
 * A connection whose search_path is pg_catalog, the one pg-delta's statements and the
 * generated migration run under: format_type() then names every type's schema.
 */
function catalogConnection(url: string): postgres.Sql {
  return postgres(url, { max: 1, onnotice: () => {}, connection: { search_path: "pg_catalog" } });
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
const quoteLiteral = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * The tables whose rows are compared: every table of public and private, and
 * storage.buckets, but not private.tenant_template_steps (the tenant part's business).
 * A table holding rows must have a primary key. Left out of each: generated columns, and columns whose
 * default calls a function that is not immutable (created_at default now(): the moment
 * each database was built, not reference data). pg_depend records no dependency on
 * built-in functions, so the default's text is searched for the functions it calls
 * (any function of that name counts) and for the SQL words that read the clock.
 */
async function dataTables(sql: postgres.Sql): Promise<DataTable[]> {
  const tables = await sql<{ id: string; schema_name: string; table_name: string }[]>`
    select c.oid::text as id, n.nspname as schema_name, c.relname as table_name
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where c.relkind in ('r', 'p') and not c.relispartition
       and (n.nspname in ('public', 'private') or (n.nspname = 'storage' and c.relname = 'buckets'))
       and (n.nspname, c.relname) <> ('private', 'tenant_template_steps')
     order by 2, 3`;
  const columns = await sql<{ table_id: string; name: string; type: string; key: boolean; identity_always: boolean }[]>`
    select a.attrelid::text as table_id, a.attname as name, format_type(a.atttypid, a.atttypmod) as type,
           coalesce(a.attnum = any (i.indkey::int2[]), false) as key, a.attidentity = 'a' as identity_always
      from pg_attribute a
      left join pg_index i on i.indrelid = a.attrelid and i.indisprimary
     where a.attrelid = any (${tables.map((t) => t.id)}::oid[]) and a.attnum > 0 and not a.attisdropped
       and a.attgenerated = ''
       and (coalesce(a.attnum = any (i.indkey::int2[]), false) or not exists (
             select 1 from pg_attrdef d
              where d.adrelid = a.attrelid and d.adnum = a.attnum
                and (pg_get_expr(d.adbin, d.adrelid) ~* '\\m(current_(date|time|timestamp)|localtime|localtimestamp)\\M'
                     or exists (select 1 from regexp_matches(pg_get_expr(d.adbin, d.adrelid), '([a-z_][a-z0-9_]*)\\(', 'g') as called (name)
                                  join pg_proc p on p.proname = called.name[1]
                                 where p.provolatile <> 'i'))))
     order by a.attrelid, a.attnum`;
  return tables.map((table) => {
    const qualifiedName = `${quoteIdent(table.schema_name)}.${quoteIdent(table.table_name)}`;
    const own = columns.filter((column) => column.table_id === table.id);
    return {
      id: table.id,
      qualifiedName,
      columns: own.map((column) => ({ name: column.name, type: column.type, key: column.key, identityAlways: column.identity_always })),
    };
  });
}

/** The tables in an order where every table comes after the tables it references. */
async function referenceOrder(sql: postgres.Sql, tables: DataTable[]): Promise<DataTable[]> {
  const edges = await sql<{ child: string; parent: string }[]>`
    select conrelid::text as child, confrelid::text as parent from pg_constraint
     where contype = 'f' and conrelid <> confrelid
       and conrelid = any (${tables.map((t) => t.id)}::oid[]) and confrelid = any (${tables.map((t) => t.id)}::oid[])`;
  const ordered: DataTable[] = [];
  const placed = new Set<string>();
  const visit = (table: DataTable, path: Set<string>) => {
    if (placed.has(table.id) || path.has(table.id)) return;
    path.add(table.id);
    for (const edge of edges.filter((e) => e.child === table.id)) {
      const parent = tables.find((t) => t.id === edge.parent);
      if (parent) visit(parent, path);
    }
    placed.add(table.id);
    ordered.push(table);
  };
  for (const table of tables) visit(table, new Set());
  return ordered;
}

type Row = (string | null)[];

async function tableRows(sql: postgres.Sql, table: DataTable): Promise<Map<string, Row>> {
  const list = table.columns.map((column) => `${quoteIdent(column.name)}::text`).join(", ");
  let rows: Row[];
  try {
    rows = (await sql.unsafe(`select ${list} from ${table.qualifiedName}`).values()) as Row[];
  } catch (error) {
    throw new Error(`The rows of ${table.qualifiedName} cannot be read on both sides (${(error as Error).message}); its columns must match once the DDL is applied.`, { cause: error });
  }
  const keyIndexes = table.columns.flatMap((column, index) => (column.key ? [index] : []));
  if (keyIndexes.length === 0 && rows.length > 0) throw new Error(`${table.qualifiedName} holds rows but has no primary key: they cannot be compared.`);
  return new Map(rows.map((row) => [JSON.stringify(keyIndexes.map((index) => row[index])), row]));
}

function valueLiteral(value: string | null, column: DataColumn): string {
  return value === null ? "null" : `${quoteLiteral(value)}::${column.type}`;
}

function keyCondition(table: DataTable, row: Row): string {
  return table.columns
    .flatMap((column, index) => (column.key ? [`${quoteIdent(column.name)} = ${valueLiteral(row[index], column)}`] : []))
    .join(" and ");
}

/**
 * Statements that make the rows of the product's tables at `fromUrl` those at `toUrl`,
 * compared by primary key: deletes (referencing tables first), then inserts and updates
 * (referenced tables first). Both databases must have the same columns: apply the DDL first.
 */
export async function diffReferenceData(fromUrl: string, toUrl: string): Promise<string[]> {
  const from = catalogConnection(fromUrl);
  const to = catalogConnection(toUrl);
  try {
    const tables = await referenceOrder(to, await dataTables(to));
    const deletes: string[][] = [];
    const writes: string[] = [];
    for (const table of tables) {
      const [before, after] = await Promise.all([tableRows(from, table), tableRows(to, table)]);
      deletes.push([...before].filter(([key]) => !after.has(key)).map(([, row]) => `delete from ${table.qualifiedName} where ${keyCondition(table, row)};`));
      const added = [...after].filter(([key]) => !before.has(key)).map(([, row]) => row);
      if (added.length > 0) {
        const names = table.columns.map((column) => quoteIdent(column.name)).join(", ");
        const overriding = table.columns.some((column) => column.identityAlways) ? " overriding system value" : "";
        const values = added.map((row) => `  (${row.map((value, index) => valueLiteral(value, table.columns[index])).join(", ")})`);
        writes.push(`insert into ${table.qualifiedName} (${names})${overriding} values\n${values.join(",\n")};`);
      }
      for (const [key, row] of after) {
        const old = before.get(key);
        if (!old) continue;
        const changes = table.columns.flatMap((column, index) =>
          !column.key && old[index] !== row[index] ? [`${quoteIdent(column.name)} = ${valueLiteral(row[index], column)}`] : [],
        );
        if (changes.length > 0) writes.push(`update ${table.qualifiedName} set ${changes.join(", ")} where ${keyCondition(table, row)};`);
      }
    }
    return [...deletes.reverse().flat(), ...writes];
  } finally {
    await Promise.all([from.end(), to.end()]);
  }
}

// ---------------------------------------------------------------------------------
// Organization tables (the tenant template)
// ---------------------------------------------------------------------------------

// The scratch organization whose schema is compared: private.organizations names its
// schema org_<slug>_<table_prefix_timestamp>. Both sides use the same name, which the
// generated step then leaves out (template steps use unqualified names).
const scratchSlug = "template-check";
const scratchSchema = "org_template_check_0";

/**
 * Builds the scratch organization's schema the way a new organization gets it:
 * private.migrate_tenant runs every template step with search_path set to the schema.
 */
async function buildScratchTenant(sql: postgres.Sql): Promise<void> {
  await sql.begin(async (tx) => {
    const [organization] = await tx<{ id: string; schema_name: string }[]>`
      insert into private.organizations (slug, name, table_prefix_timestamp)
      values (${scratchSlug}, 'Template check', 0) returning id, schema_name`;
    if (organization.schema_name !== scratchSchema) {
      throw new Error(`The scratch organization's schema is ${organization.schema_name}, expected ${scratchSchema}.`);
    }
    await tx`select private.migrate_tenant(${organization.id})`;
  });
}

async function dropScratchTenant(sql: postgres.Sql): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`delete from private.organizations where slug = ${scratchSlug}`;
    await tx.unsafe(`drop schema if exists ${scratchSchema} cascade`);
  });
}

/** Takes the scratch schema's name out of pg-delta's statements, which qualify every name. */
function unqualified(statement: string): string {
  const bare = statement.replaceAll(`"${scratchSchema}".`, "").replaceAll(`${scratchSchema}.`, "");
  if (bare.includes(scratchSchema)) throw new Error(`A tenant statement names its schema other than as a qualifier: ${bare}`);
  return bare;
}

/**
 * The template step that brings an organization built through the template steps at
 * `fromUrl` to the shape the files in `tenantDir` give one at `toUrl`, or null when they
 * agree. At `toUrl` the template steps are replaced by one step made of those files (in
 * filename order), so both organizations are built by private.migrate_tenant alike.
 */
export async function diffTenantTemplate(fromUrl: string, toUrl: string, tenantDir: string, description: string): Promise<string | null> {
  const from = postgres(fromUrl, { max: 1, onnotice: () => {} });
  const to = postgres(toUrl, { max: 1, onnotice: () => {} });
  try {
    await buildScratchTenant(from);
    // migrate_tenant runs the step with EXECUTE: PostgreSQL points into it with internal_position.
    await runSqlFolder(
      tenantDir,
      async (script) => {
        await to.begin(async (tx) => {
          await tx`delete from private.tenant_template_steps`;
          await tx`insert into private.tenant_template_steps (version, description, ddl) values (1, 'schema files', ${script})`;
        });
        await buildScratchTenant(to);
      },
      "internal_position",
    );
    const difference = await diffDdl(fromUrl, toUrl, scratchSchema);
    if (difference.statements.length === 0) return null;
    const ddl = difference.statements.map(unqualified).join("\n");
    if (ddl.includes("$template$")) throw new Error("The tenant change contains $template$, which would end the step's quoting.");
    const [{ version }] = await from<{ version: number }[]>`select coalesce(max(version), 0) + 1 as version from private.tenant_template_steps`;
    return `insert into private.tenant_template_steps (version, description, ddl) values (${version}, ${quoteLiteral(description)}, $template$\n${ddl}\n$template$);`;
  } finally {
    await Promise.allSettled([dropScratchTenant(from), dropScratchTenant(to)]);
    await Promise.all([from.end(), to.end()]);
  }
}

// ---------------------------------------------------------------------------------
// The whole difference, its rendering and the migration file
// ---------------------------------------------------------------------------------

async function runScript(url: string, script: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql.begin((tx) => tx.unsafe(script));
  } finally {
    await sql.end();
  }
}

/**
 * The three parts, each applied at `fromUrl` as soon as it is known: the data is compared
 * once the columns agree, and the organization built at `fromUrl` uses the new functions
 * and reference data, as an organization created after the migration would.
 */
async function differenceApplied(fromUrl: string, toUrl: string, tenantDir: string, description: string): Promise<SchemaDifference> {
  const ddl = await diffDdl(fromUrl, toUrl);
  if (ddl.statements.length > 0) {
    await runScript(fromUrl, [...ddl.preamble, ...ddl.statements].join("\n")).catch((error: Error) => {
      throw new Error(`The generated DDL does not apply to the migrations' database: ${error.message}`, { cause: error });
    });
  }
  const data = await diffReferenceData(fromUrl, toUrl);
  if (data.length > 0) await runScript(fromUrl, data.join("\n"));
  const tenantStep = await diffTenantTemplate(fromUrl, toUrl, tenantDir, description);
  if (tenantStep) await runScript(fromUrl, tenantStep);
  return { schema: ddl.statements, schemaPreamble: ddl.statements.length > 0 ? ddl.preamble : [], data, tenantStep };
}

/**
 * Prepares one scratch database from the migrations and one from the schema files,
 * returns what turns the first into the second, and drops both. A difference is
 * verified before it is returned: once applied to the migrations' database, comparing
 * again must find nothing (otherwise the engine got something wrong, and this says what).
 * `description` names the template step, when there is one.
 */
export async function diffSchemaFiles(folders: SchemaFolders = projectSchemaFolders, description = "schema files"): Promise<SchemaDifference> {
  const databases: TestDatabase[] = [];
  try {
    // One after the other: preparing changes cluster-wide roles (platform.sql, the API
    // roles' settings), which two preparations at once collide on.
    const migrated = await createTestDatabase({ prefix: "crm_diff_migrations", migrationsDir: folders.migrationsDir });
    databases.push(migrated);
    const declared = await createTestDatabase({ prefix: "crm_diff_schemas", schemasDir: folders.schemasDir });
    databases.push(declared);
    const difference = await differenceApplied(migrated.url, declared.url, folders.tenantDir, description);
    if (!isEmptyDifference(difference)) {
      const left = await differenceApplied(migrated.url, declared.url, folders.tenantDir, description);
      if (!isEmptyDifference(left)) {
        throw new Error(`The generated migration does not converge: after applying it, this difference is left:\n${renderDifference(left)}`);
      }
    }
    return difference;
  } finally {
    await Promise.all(databases.map((database) => database.drop()));
  }
}

/** The difference as SQL, each part under a one-line heading; empty when there is none. */
export function renderDifference(difference: SchemaDifference): string {
  const parts: string[] = [];
  if (difference.schema.length > 0) {
    parts.push([`-- Schema (DDL from ${engineName})`, ...difference.schemaPreamble, ...difference.schema].join("\n"));
  }
  if (difference.data.length > 0) parts.push(["-- Reference data", ...difference.data].join("\n"));
  if (difference.tenantStep) {
    parts.push(
      [
        "-- Organization tables: a new template step (`npm run db:migrate-tenants` brings existing organizations there)",
        difference.tenantStep,
      ].join("\n"),
    );
  }
  return parts.join("\n\n");
}

/** A migration name: snake_case, as the migration files are named. */
export function isMigrationName(name: string): boolean {
  return /^[a-z][a-z0-9_]{0,99}$/.test(name);
}

/**
 * Writes `<migrationsDir>/<UTC yyyymmddhhmmss>_<name>.sql` holding the difference and
 * returns its path. Refuses a name that is not snake_case and a version not after the
 * newest migration's.
 */
export function writeMigration(difference: SchemaDifference, name: string, dir: string, now = new Date()): string {
  if (!isMigrationName(name)) throw new Error(`"${name}" is not a migration name: use lowercase letters, digits and underscores.`);
  const version = now.toISOString().replace(/\D/g, "").slice(0, 14);
  const newest = readdirSync(dir).filter((file) => /^\d{14}_/.test(file)).sort().at(-1);
  if (newest && newest.slice(0, 14) >= version) {
    throw new Error(`The new migration's version ${version} is not after the newest migration ${newest}: wait a second, or check the clock.`);
  }
  const path = join(dir, `${version}_${name}.sql`);
  const header = [
    `-- Generated by \`npm run db:diff -- ${name}\`: what turns a database built from supabase/migrations`,
    "-- into one built from supabase/schemas (and supabase/tenant). Review it; edit the schema files, not this.",
  ].join("\n");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path, `${header}\n\n${renderDifference(difference)}\n`);
  return path;
}
