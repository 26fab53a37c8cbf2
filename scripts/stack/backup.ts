/**
 * Backups of the product's data, as one .tar.gz a person can open and read:
 *
 *   manifest.json            what it holds: format, when, from which database, the
 *                            migrations it needs, rows per table, every object's size,
 *                            content type and sha256
 *   database.sql             plain SQL for a database that has the migrations applied and no
 *                            data yet (statements separated by an empty line):
 *                            psql "$URL" -v ON_ERROR_STOP=1 --single-transaction -f database.sql
 *   storage.sql              Storage's rows (buckets, objects), for a Storage that keeps the
 *                            bytes where this product put them (the local stack, PostgreSQL
 *                            with `npm start`); hosted Supabase gets the bytes through its
 *                            Storage API instead, which writes the rows itself
 *   supabase.sql             what a hosted Supabase project needs besides: its Auth server
 *                            (GoTrue) reads the token columns of auth.users as strings and
 *                            fails a sign-in on a NULL there (supabase/auth#1940), so they
 *                            become empty strings
 *   objects/<bucket>/<name>  every object's bytes (content types under objects/.content-types)
 *
 * Everything is read in ONE read-only repeatable-read transaction, so the dump is one
 * consistent state however busy the product is (on the embedded database, requests wait
 * while it runs). Left out on purpose: sign-in sessions (auth sessions and refresh tokens,
 * the organization a session is bound to, sign-in proofs, request tokens; people sign in
 * again after a restore) and the migration history (the target's must match the backup's).
 *
 * Restoring replays database.sql with triggers off (session_replication_role = replica, as
 * Supabase's own restore guide does), so rows come back exactly as they were: no trigger
 * stamps a new updated_at or writes an audit row twice. Every organization's tables are
 * created by the product's own template function (private.migrate_tenant), given the columns
 * of its custom fields (private.build_custom_fields), then filled.
 */
import { createHash, randomBytes } from "node:crypto";
import { createReadStream, createWriteStream, type WriteStream } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { once } from "node:events";
import { createInterface } from "node:readline";
import * as tar from "tar";
import type { SqlRunner, SqlTransaction } from "./database.ts";
import { FileStorage } from "./storage-files.ts";

export const backupFormat = 1;

/** What a backup leaves out: state that belongs to a sign-in session. */
const sessionTables = new Set(["private.session_organizations", "private.login_proofs", "private.request_tokens", "private.document_downloads",
  // The spare organization schemas of this database (empty, rebuilt by its own refill): a backup holds none.
  "private.tenant_spares"]);

/** Loaded again after the organizations' tables are built, which stamps both. */
const stampedByTemplate = ["private.organizations", "private.tenant_migrations"];

const rowsPerStatement = 1000;

/** A refusal or problem a person can act on (printed without a stack trace). */
export class BackupError extends Error {}

/** The rows are restored, but an object's upload to a Storage API failed. */
export class UploadError extends BackupError {}

export interface BackedUpTable {
  schema: string;
  table: string;
  /** schema.table */
  name: string;
  /** Columns a restore writes (generated ones are computed again). */
  columns: string[];
  /** Has a GENERATED ALWAYS identity, so inserts need OVERRIDING SYSTEM VALUE. */
  identityAlways: boolean;
  /** One organization's own table. */
  tenant: boolean;
}

export interface BackedUpObject {
  bucket: string;
  name: string;
  contentType: string;
  cacheControl: string;
  size: number;
  sha256: string;
}

export interface Manifest {
  format: number;
  product: "satis-crm";
  takenAt: string;
  source: string;
  /** The migration versions the backup was taken at; a target must have exactly these. */
  migrations: string[];
  rows: Record<string, number>;
  objects: BackedUpObject[];
  /** Objects whose row exists but whose file was already gone when the backup ran. */
  missingObjects: { bucket: string; name: string }[];
}

/** What a backup holds, in four numbers (printed by db:backup, sent by the running product). */
export interface BackupSummary {
  tables: number;
  rows: number;
  objects: number;
  missing: number;
}

export const backupSummary = (manifest: Manifest): BackupSummary => ({
  tables: Object.keys(manifest.rows).length,
  rows: Object.values(manifest.rows).reduce((sum, count) => sum + count, 0),
  objects: manifest.objects.length,
  missing: manifest.missingObjects.length,
});

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
const qualified = (table: { schema: string; table: string }) => `${ident(table.schema)}.${ident(table.table)}`;
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

type Query = SqlTransaction["query"];

/**
 * The tables a backup holds: the control tables (private), every organization's tables,
 * the accounts (auth users and identities) and Storage's buckets and objects.
 */
export async function backedUpTables(query: Query): Promise<BackedUpTable[]> {
  const rows = await query<{ schema: string; table: string; columns: string[]; identity_always: boolean; tenant: boolean }>(
    `with tenant as (
       select o.schema_name from private.organizations o
        where o.template_version > 0 and exists (select 1 from pg_catalog.pg_namespace n where n.nspname = o.schema_name))
     select n.nspname::text as schema, c.relname::text as table,
            array_agg(a.attname::text order by a.attnum) filter (where a.attgenerated = '') as columns,
            coalesce(bool_or(a.attidentity = 'a'), false) as identity_always,
            n.nspname in (select schema_name from tenant) as tenant
       from pg_catalog.pg_class c
       join pg_catalog.pg_namespace n on n.oid = c.relnamespace
       join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where c.relkind in ('r', 'p') and not c.relispartition
        and (n.nspname = 'private' or n.nspname in (select schema_name from tenant)
             or (n.nspname = 'auth' and c.relname in ('users', 'identities'))
             or (n.nspname = 'storage' and c.relname in ('buckets', 'objects')))
      group by n.nspname, c.relname
      order by n.nspname, c.relname`,
  );
  return rows
    .map((row) => ({
      schema: row.schema,
      table: row.table,
      name: `${row.schema}.${row.table}`,
      columns: row.columns,
      identityAlways: row.identity_always,
      tenant: row.tenant,
    }))
    .filter((table) => !sessionTables.has(table.name));
}

/** Per table, its row count and a hash of its rows (order-free): equal fingerprints, equal data. Inside a transaction. */
export async function tableFingerprints(query: Query): Promise<Map<string, string>> {
  await query("set local timezone = 'UTC'");
  const fingerprints = new Map<string, string>();
  for (const table of await backedUpTables(query)) {
    const [row] = await query<{ fingerprint: string }>(
      `select count(*) || '/' || coalesce(md5(string_agg(md5(x::text), '' order by md5(x::text))), '-') as fingerprint
         from (select ${table.columns.map(ident).join(", ")} from ${qualified(table)}) x`,
    );
    fingerprints.set(table.name, row.fingerprint);
  }
  return fingerprints;
}

/** Writes text to a file stream, waiting when its buffer is full. */
async function write(out: WriteStream, text: string): Promise<void> {
  if (!out.write(text)) await once(out, "drain");
}

async function close(out: WriteStream): Promise<void> {
  out.end();
  await once(out, "finish");
}

/**
 * The table's rows as INSERT statements of up to 1,000 rows each, every row one line of
 * JSON inside a dollar quote no row contains, read through a cursor so a large table never
 * sits in memory whole.
 */
async function writeRows(tx: SqlTransaction, table: BackedUpTable, out: WriteStream, quote: string): Promise<number> {
  const columns = table.columns.map(ident).join(", ");
  await write(out, `delete from ${qualified(table)};\n\n`);
  await tx.exec(`declare backup_rows no scroll cursor for
    select row_to_json(r)::text as row from (select ${columns} from ${qualified(table)}) r`);
  let count = 0;
  for (;;) {
    const rows = await tx.query<{ row: string }>(`fetch forward ${rowsPerStatement} from backup_rows`);
    if (rows.length === 0) break;
    count += rows.length;
    const lines = rows.map(({ row }) => {
      // JSON escapes every line break inside a value, and no column is of type json (whose
      // own whitespace would be kept): one row, one line. Checked, not assumed.
      if (row.includes("\n") || row.includes(quote)) throw new BackupError(`a row of ${table.name} cannot be written on one line`);
      return row;
    });
    await write(
      out,
      `insert into ${qualified(table)} (${columns})${table.identityAlways ? " overriding system value" : ""}\n` +
        `select ${columns} from pg_catalog.json_populate_recordset(null::${qualified(table)}, ${quote}[\n${lines.join(",\n")}\n]${quote});\n\n`,
    );
  }
  await tx.exec("close backup_rows");
  return count;
}

/** setval for every sequence of the backed-up schemas, so new ids continue after the restored ones. */
async function writeSequences(tx: SqlTransaction, schemas: string[], out: WriteStream): Promise<void> {
  const sequences = await tx.query<{ name: string }>(
    `select pg_catalog.quote_ident(n.nspname) || '.' || pg_catalog.quote_ident(c.relname) as name
       from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where c.relkind = 'S' and n.nspname = any ($1::text[]) order by 1`,
    [schemas],
  );
  for (const { name } of sequences) {
    const [state] = await tx.query<{ last_value: string; is_called: boolean }>(`select last_value::text, is_called from ${name}`);
    await write(out, `select pg_catalog.setval(${literal(name)}, ${state.last_value}, ${state.is_called});\n\n`);
  }
}

const sqlHeader = (manifest: Pick<Manifest, "takenAt" | "source">, what: string) =>
  `-- Satış CRM backup (format ${backupFormat}): ${what}, taken ${manifest.takenAt} from ${manifest.source}.\n` +
  `-- Restore with \`npm run db:restore FILE\`, or by hand into a database that has the migrations applied and no data:\n` +
  `--   psql "$DATABASE_URL" -v ON_ERROR_STOP=1 --single-transaction -f database.sql [-f storage.sql]\n` +
  `-- Statements are separated by an empty line. Triggers are off while rows are loaded.\n\n` +
  `set local session_replication_role = replica;\n\nset local statement_timeout = 0;\n\n`;

/** auth.users columns GoTrue scans into Go strings: NULL there fails every sign-in of that user. */
const gotrueStringColumns = [
  "confirmation_token", "recovery_token", "email_change_token_new", "email_change_token_current",
  "email_change", "phone_change", "phone_change_token", "reauthentication_token",
];

const supabaseSql =
  "-- For a hosted Supabase project, after database.sql: its Auth server (GoTrue) reads these columns as\n" +
  "-- strings and fails a sign-in on NULL (supabase/auth#1940); the local stack keeps NULL there.\n\n" +
  `update auth.users set ${gotrueStringColumns.map((column) => `${column} = coalesce(${column}, '')`).join(", ")}\n` +
  ` where ${gotrueStringColumns.map((column) => `${column} is null`).join(" or ")};\n`;

/** Refuses a target that is at other migrations than the backup, or that already holds data. */
function guard(migrations: string[]): string {
  const expected = migrations.join(",");
  return `do $guard$
declare
  found_migrations text := (select string_agg(version, ',' order by version) from supabase_migrations.schema_migrations);
begin
  if found_migrations is distinct from ${literal(expected)} then
    raise exception 'This backup needs a database at migration ${migrations.at(-1)} (% migrations); this one is at %.',
      ${migrations.length}, coalesce(right(found_migrations, 14), 'no migrations');
  end if;
  if exists (select 1 from private.organizations) or exists (select 1 from auth.users) then
    raise exception 'This database already holds organizations or users; a backup is restored only into a database that has the migrations applied and no data.';
  end if;
end
$guard$;

`;
}

export interface BackupSource {
  sql: SqlRunner;
  /** Where Storage's object bytes are. */
  storage: FileStorage;
  /** Said in the manifest: "PGlite (…)" or "PostgreSQL". */
  description: string;
}

/** The mode of a backup archive: it holds every account's password hash, so its owner's only. */
export const backupFileMode = 0o600;

/**
 * Writes a backup of `source` to `file` (a .tar.gz, created anew with mode 600); returns its
 * manifest. The staging folder is mkdtemp's (mode 700).
 */
export async function writeBackup(source: BackupSource, file: string): Promise<Manifest> {
  const staging = await mkdtemp(join(tmpdir(), "crm-backup-"));
  try {
    const manifest = await source.sql.transaction((tx) => dump(tx, source, staging), "snapshot");
    await writeFile(join(staging, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    await writeFile(join(staging, "supabase.sql"), supabaseSql);
    // A file's mode is set when it is created: one left at this name is removed first.
    await rm(file, { force: true });
    await tar.create({ gzip: true, file, mode: backupFileMode, cwd: staging, portable: true }, [
      "manifest.json", "database.sql", "storage.sql", "supabase.sql", "objects",
    ]);
    return manifest;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

async function dump(tx: SqlTransaction, source: BackupSource, staging: string): Promise<Manifest> {
  const manifest: Manifest = {
    format: backupFormat,
    product: "satis-crm",
    takenAt: new Date().toISOString(),
    source: source.description,
    migrations: await appliedMigrations(tx.query),
    rows: {},
    objects: [],
    missingObjects: [],
  };
  const quote = `$backup_${randomBytes(8).toString("hex")}$`;
  const tables = await backedUpTables(tx.query);
  const storageTables = tables.filter((table) => table.schema === "storage");
  const tenantTables = tables.filter((table) => table.tenant);
  const controlTables = tables.filter((table) => !table.tenant && table.schema !== "storage");

  const database = createWriteStream(join(staging, "database.sql"));
  await write(database, sqlHeader(manifest, "the organizations' data, accounts and settings") + guard(manifest.migrations));
  for (const table of controlTables) {
    if (table.name === "private.tenant_migrations") continue;
    manifest.rows[table.name] = await writeRows(tx, table, database, quote);
  }
  await write(
    database,
    "-- Every organization's tables, built by the product's own template function, with the columns and indexes of\n" +
      "-- its custom fields (private.custom_fields, loaded above), then filled.\n" +
      "select private.migrate_tenant(o.id) from private.organizations o where o.template_version > 0 order by o.id;\n\n" +
      "select private.build_custom_fields(o.id) from private.organizations o where o.template_version > 0 order by o.id;\n\n",
  );
  for (const table of tenantTables) manifest.rows[table.name] = await writeRows(tx, table, database, quote);
  for (const name of stampedByTemplate) manifest.rows[name] = await writeRows(tx, tables.find((table) => table.name === name)!, database, quote);
  await writeSequences(tx, [...new Set(tables.map((table) => table.schema))], database);
  await close(database);

  const storageSql = createWriteStream(join(staging, "storage.sql"));
  await write(storageSql, sqlHeader(manifest, "Storage's buckets and objects (their rows; the bytes are under objects/)"));
  for (const table of storageTables) {
    manifest.rows[table.name] = await writeRows(tx, table, storageSql, quote);
  }
  await close(storageSql);

  // The bytes of every object the snapshot lists, copied while the snapshot is held.
  await mkdir(join(staging, "objects"));
  const files = new FileStorage(join(staging, "objects"));
  const objects = await tx.query<{ bucket: string; name: string; content_type: string | null; cache_control: string | null }>(
    `select bucket_id as bucket, name, metadata->>'mimetype' as content_type, metadata->>'cacheControl' as cache_control
       from storage.objects order by bucket_id, name`,
  );
  for (const object of objects) {
    const found = await source.storage.getObject(object.bucket, object.name, undefined).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return null;
      throw error;
    });
    if (!found?.body) {
      manifest.missingObjects.push({ bucket: object.bucket, name: object.name });
      continue;
    }
    const bytes = new Uint8Array(await new Response(found.body).arrayBuffer());
    const contentType = object.content_type ?? found.metadata.mimetype;
    const cacheControl = object.cache_control ?? "no-cache";
    await files.uploadObject(object.bucket, object.name, undefined, bytes, contentType, cacheControl);
    manifest.objects.push({
      bucket: object.bucket,
      name: object.name,
      contentType,
      cacheControl,
      size: bytes.byteLength,
      sha256: createHash("sha256").update(bytes).digest("hex"),
    });
  }
  return manifest;
}

/** An unpacked backup: its manifest and folder (removed by `dispose`). */
export interface OpenedBackup {
  manifest: Manifest;
  folder: string;
  objects: FileStorage;
  dispose(): Promise<void>;
}

/** Unpacks a backup into a temporary folder and reads its manifest. */
export async function openBackup(file: string): Promise<OpenedBackup> {
  const folder = await mkdtemp(join(tmpdir(), "crm-restore-"));
  const dispose = () => rm(folder, { recursive: true, force: true });
  try {
    await tar.extract({ file, cwd: folder, strict: true });
    const manifest = JSON.parse(await readFile(join(folder, "manifest.json"), "utf8")) as Manifest;
    if (manifest.product !== "satis-crm" || manifest.format !== backupFormat) {
      throw new BackupError(`${file} is not a Satış CRM backup of format ${backupFormat}`);
    }
    return { manifest, folder, objects: new FileStorage(join(folder, "objects")), dispose };
  } catch (error) {
    await dispose();
    if (error instanceof BackupError) throw error;
    throw new BackupError(`${file} cannot be read as a backup (${(error as Error).message})`);
  }
}

/** Runs a backup's SQL file statement by statement (they are separated by an empty line). */
export async function runSqlFile(tx: SqlTransaction, path: string): Promise<void> {
  const lines = createInterface({ input: createReadStream(path, "utf8"), crlfDelay: Infinity });
  let statement: string[] = [];
  const flush = async () => {
    const text = statement.filter((line) => !line.startsWith("--")).join("\n");
    statement = [];
    if (text.trim()) await tx.exec(text);
  };
  for await (const line of lines) {
    if (line === "") await flush();
    else statement.push(line);
  }
  await flush();
}

/** The migration versions a database has applied. */
export async function appliedMigrations(query: Query): Promise<string[]> {
  return (await query<{ version: string }>("select version from supabase_migrations.schema_migrations order by version")).map(
    (row) => row.version,
  );
}

/** Where a restore writes object bytes: files under a folder (with storage.sql's rows), or a Storage API. */
export type ObjectTarget = { kind: "files"; storage: FileStorage } | { kind: "api"; url: string; secretKey: string };

/**
 * Restores an opened backup into a database that has the same migrations applied and no
 * data, in one transaction: a refusal or failure leaves the database as it was. Object
 * bytes go into the folder within that transaction (a failure rolls the rows back), or,
 * for a Storage API (hosted Supabase), are uploaded after it.
 */
export async function restoreBackup(backup: OpenedBackup, sql: SqlRunner, objects: ObjectTarget): Promise<BackupSummary> {
  const target = await appliedMigrations(sql.query);
  if (target.join(",") !== backup.manifest.migrations.join(",")) {
    throw new BackupError(
      `the backup was taken at migration ${backup.manifest.migrations.at(-1)} (${backup.manifest.migrations.length} migrations); ` +
        `the target is at ${target.at(-1) ?? "no migrations"} (${target.length}). Restore with the product version that took it.`,
    );
  }
  await sql.transaction(async (tx) => {
    await runSqlFile(tx, join(backup.folder, "database.sql"));
    if (objects.kind === "api") await runSqlFile(tx, join(backup.folder, "supabase.sql"));
    if (objects.kind === "files") {
      await runSqlFile(tx, join(backup.folder, "storage.sql"));
      for (const object of backup.manifest.objects) {
        const { body } = await backup.objects.getObject(object.bucket, object.name, undefined);
        const bytes = new Uint8Array(await new Response(body).arrayBuffer());
        await objects.storage.uploadObject(object.bucket, object.name, undefined, bytes, object.contentType, object.cacheControl);
      }
    }
    // What was written is what the backup says: every table's row count.
    for (const [name, expected] of Object.entries(backup.manifest.rows)) {
      if (objects.kind === "api" && name.startsWith("storage.")) continue;
      const [schema, table] = name.split(".");
      const [{ count }] = await tx.query<{ count: number }>(`select count(*)::int as count from ${qualified({ schema, table })}`);
      if (count !== expected) throw new BackupError(`${name} has ${count} rows after the restore; the backup has ${expected}`);
    }
  });
  if (objects.kind === "api") await uploadObjects(backup, objects);
  return backupSummary(backup.manifest);
}

/** Uploads every object through a Storage API (`<url>/storage/v1`) with the secret key. */
export async function uploadObjects(backup: OpenedBackup, target: { url: string; secretKey: string }): Promise<void> {
  for (const object of backup.manifest.objects) {
    const { body } = await backup.objects.getObject(object.bucket, object.name, undefined);
    const path = object.name.split("/").map(encodeURIComponent).join("/");
    const answer = await fetch(`${target.url.replace(/\/$/, "")}/storage/v1/object/${encodeURIComponent(object.bucket)}/${path}`, {
      method: "POST",
      headers: {
        apikey: target.secretKey,
        authorization: `Bearer ${target.secretKey}`,
        "content-type": object.contentType,
        "cache-control": object.cacheControl,
        "x-upsert": "true",
      },
      body: new Uint8Array(await new Response(body).arrayBuffer()),
    });
    if (!answer.ok) {
      throw new UploadError(
        `uploading ${object.bucket}/${object.name} was refused (${answer.status} ${await answer.text()}); ` +
          "the database is restored: run the restore again with --objects-only to upload the objects",
      );
    }
  }
}
