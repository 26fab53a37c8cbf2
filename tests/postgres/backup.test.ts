/**
 * Backup → restore → compare (issue 15, "a way out of the embedded database"): a backup of
 * the running product on its embedded database, taken while users write, restored into a
 * fresh embedded database, into PostgreSQL 15 with the migrations applied, and into a
 * Supabase-compatible project through its Storage API; every table's rows and every
 * object's bytes must come back as they were. A target that holds data or is at other
 * migrations is refused and left as it was. An organization's custom field (its declaration, its
 * column of the organization's table, its index and its values) comes back too. The archives are their owner's only (mode 600,
 * a folder made for them 700), the running product takes a backup only with its own secret
 * key (issue 23), and the restore takes no secret from its arguments.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backedUpTables, openBackup, restoreBackup, tableFingerprints, writeBackup, type OpenedBackup } from "../../scripts/stack/backup.ts";
import { openBackend, openSqlConnection, type SqlRunner } from "../../scripts/stack/database.ts";
import { generateKeys, keyEnvironment, projectRoot, publishedKeySets, type LocalKeys } from "../../scripts/stack/env.ts";
import { freePort } from "../../scripts/stack/free-port.ts";
import { startStack, type RunningStack } from "../../scripts/stack/server.ts";
import { FileStorage } from "../../scripts/stack/storage-files.ts";
import { createTestDatabase, type TestDatabase } from "../../scripts/stack/test-database.ts";
import { demoOrganizationId, rpc, signedInClient } from "../support/clients.ts";
import { testKeys } from "../support/keys.ts";

const scratch = mkdtempSync(join(tmpdir(), "crm-backup-test-"));
/**
 * The product's keys: a secret key and JWT secret of its own, as an installation makes them
 * (the backup endpoint works on no published secret key), and the tests' publishable key,
 * which the test clients send (it is public by design).
 */
const keys: LocalKeys = { ...generateKeys(), publishableKey: testKeys.publishableKey };
/** The permission bits of a file or folder. */
const modeOf = (path: string) => statSync(path).mode & 0o777;
const objectName = `${demoOrganizationId}/backup-test/teklif.pdf`;
const objectBytes = new Uint8Array(Array.from({ length: 70_000 }, (_, index) => (index * 31 + 7) % 256));
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

let source: RunningStack;
const databases: TestDatabase[] = [];

const fingerprints = (sql: SqlRunner) => sql.transaction((tx) => tableFingerprints(tx.query));

/**
 * Fingerprints without Storage's rows (a Storage API writes its own ids and times) and the
 * accounts (whose NULL token columns a Supabase restore turns into empty strings for GoTrue).
 */
const withoutStorageAndAccounts = (prints: Map<string, string>) =>
  new Map([...prints].filter(([name]) => !name.startsWith("storage.") && name !== "auth.users"));

/** Asks the running product for a backup, as `npm run db:backup` does; returns the file. */
async function backupOf(stack: RunningStack, name: string): Promise<string> {
  const answer = await fetch(`${stack.url}/_stack/backup`, { method: "POST", headers: { authorization: `Bearer ${keys.secretKey}` } });
  expect(answer.status).toBe(200);
  const file = join(scratch, name);
  writeFileSync(file, new Uint8Array(await answer.arrayBuffer()));
  return file;
}

beforeAll(async () => {
  source = await startStack({ port: await freePort(), keys, dataDir: join(scratch, "source-pglite"), storageDir: join(scratch, "source-storage"), seed: true });
  const upload = await fetch(`${source.url}/storage/v1/object/documents/${objectName}`, {
    method: "POST",
    headers: { apikey: keys.secretKey, authorization: `Bearer ${keys.secretKey}`, "content-type": "application/pdf" },
    body: objectBytes,
  });
  expect(upload.status).toBe(200);
});

afterAll(async () => {
  await source?.stop();
  for (const database of databases) await database.drop();
  rmSync(scratch, { recursive: true, force: true });
});

describe("the running product's backup", () => {
  it("is refused without the installation's own secret key: none, the publishable key, a published secret key", async () => {
    const published = [publishedKeySets.oldExample.secretKey, publishedKeySets.tests.secretKey];
    for (const authorization of [undefined, `Bearer ${keys.publishableKey}`, `Bearer ${keys.secretKey}x`, ...published.map((key) => `Bearer ${key}`)]) {
      const answer = await fetch(`${source.url}/_stack/backup`, { method: "POST", headers: authorization ? { authorization } : {} });
      expect(answer.status).toBe(401);
      expect(await answer.json()).toEqual({ message: "The secret key is required" });
    }
  });

  it("is one consistent state while users write: every created customer with its audit row, nothing half", async () => {
    const { client } = await signedInClient(source.url, "satis@demo.test");
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) {
        const answer = await rpc(client, "create_customer", { p_values: { name: `Yedek Testi ${written}`, kind: "company", status: "lead" } });
        expect(answer.success).toBe(true);
        written += 1;
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const file = await backupOf(source, "during-writes.tar.gz");
    writing = false;
    await writer;
    expect(written).toBeGreaterThan(0);

    const backup = await openBackup(file);
    const restored = await openBackend({ dataDir: join(scratch, "consistency-pglite"), storageDir: join(scratch, "consistency-storage") }, keys);
    try {
      await restoreBackup(backup, restored.sql, { kind: "files", storage: restored.storage });
      const [schema] = await restored.sql.query<{ schema: string }>("select private.tenant_schema($1) as schema", [demoOrganizationId]);
      const [counts] = await restored.sql.query<{ customers: number; audited: number }>(
        `select (select count(*)::int from ${schema.schema}.customers where name like 'Yedek Testi %') as customers,
                (select count(*)::int from private.audit_log a join ${schema.schema}.customers c on c.id::text = a.target_id
                  where a.action = 'customers.create' and c.name like 'Yedek Testi %') as audited`,
      );
      expect(counts.customers).toBe(counts.audited);
      expect(counts.customers).toBeLessThanOrEqual(written);
    } finally {
      await restored.close();
      await backup.dispose();
    }
  });
});

describe("backup files", () => {
  it("are their owner's only (mode 600), also when a file was left at their name", async () => {
    const file = join(scratch, "mode.tar.gz");
    writeFileSync(file, "left over");
    chmodSync(file, 0o644);
    await writeBackup({ sql: source.backend.sql, storage: source.backend.storage, description: "test" }, file);
    expect(modeOf(file)).toBe(0o600);
    expect((await openBackup(file)).manifest.product).toBe("satis-crm");
  });
});

describe("backup → restore → compare", () => {
  let backup: OpenedBackup;
  let expected: Map<string, string>;

  /** The demo organization's custom field of customers (a column of its own table), read where it is restored. */
  const customField = async (sql: SqlRunner) => {
    const [schema] = await sql.query<{ schema: string }>("select private.tenant_schema($1) as schema", [demoOrganizationId]);
    const [found] = await sql.query<{ label: string; type: string; value: string; indexed: boolean }>(
      `select f.label_tr as label, format_type(a.atttypid, a.atttypmod) as type,
              (select c.cf_yedek_alani from ${schema.schema}.customers c where c.cf_yedek_alani is not null) as value,
              exists (select 1 from pg_indexes i where i.schemaname = $2 and i.indexname = 'customers_cf_yedek_alani_filter_idx') as indexed
         from private.custom_fields f
         join pg_attribute a on a.attrelid = format('%I.customers', $2::text)::regclass and a.attname = f.key
        where f.organization_id = $1 and f.key = 'cf_yedek_alani'`,
      [demoOrganizationId, schema.schema],
    );
    return found;
  };

  beforeAll(async () => {
    // A custom field with a value: its declaration is a control row, its column exists only in demo's table.
    const { client } = await signedInClient(source.url, "admin@demo.test");
    const saved = await rpc(client, "save_custom_field", { p_module: "customers", p_field: { label_tr: "Yedek alanı", type: "text", filterable: true } });
    expect(saved).toMatchObject({ success: true, field: { key: "cf_yedek_alani" } });
    const [schema] = await source.backend.sql.query<{ schema: string }>("select private.tenant_schema($1) as schema", [demoOrganizationId]);
    await source.backend.sql.query(
      `update ${schema.schema}.customers set cf_yedek_alani = 'Yedekten döner' where id = (select min(id::text)::uuid from ${schema.schema}.customers)`,
    );
    expect(await customField(source.backend.sql)).toEqual({ label: "Yedek alanı", type: "text", value: "Yedekten döner", indexed: true });
    backup = await openBackup(await backupOf(source, "quiet.tar.gz"));
    expected = await fingerprints(source.backend.sql);
  });

  afterAll(() => backup?.dispose());

  it("holds every table of the product, the object's bytes, and no sign-in session", async () => {
    const tables = await source.backend.sql.transaction((tx) => backedUpTables(tx.query));
    expect(Object.keys(backup.manifest.rows).sort()).toEqual(tables.map((table) => table.name).sort());
    expect(tables.filter((table) => table.tenant).length).toBeGreaterThanOrEqual(2 * 20);
    for (const session of ["auth.sessions", "auth.refresh_tokens", "private.session_organizations", "private.request_tokens"]) {
      expect(backup.manifest.rows).not.toHaveProperty(session);
    }
    expect(backup.manifest.objects).toEqual([
      expect.objectContaining({ bucket: "documents", name: objectName, contentType: "application/pdf", size: objectBytes.length, sha256: sha256(objectBytes) }),
    ]);
  });

  it("restores into a fresh embedded database: every row and the object's bytes as they were", async () => {
    const target = await openBackend({ dataDir: join(scratch, "target-pglite"), storageDir: join(scratch, "target-storage") }, keys);
    try {
      await restoreBackup(backup, target.sql, { kind: "files", storage: target.storage });
      expect(await fingerprints(target.sql)).toEqual(expected);
      expect(await customField(target.sql)).toEqual({ label: "Yedek alanı", type: "text", value: "Yedekten döner", indexed: true });
      const { body } = await target.storage.getObject("documents", objectName, undefined);
      expect(sha256(new Uint8Array(await new Response(body).arrayBuffer()))).toBe(sha256(objectBytes));
    } finally {
      await target.close();
    }
  });

  it("restores into PostgreSQL 15 with the migrations applied, then refuses a second time and changes nothing", async () => {
    const database = await createTestDatabase({ prefix: "crm_restore" });
    databases.push(database);
    const target = await openSqlConnection({ databaseUrl: database.url });
    const storage = new FileStorage(join(scratch, "postgres-storage"));
    try {
      await restoreBackup(backup, target.sql, { kind: "files", storage });
      const restored = await fingerprints(target.sql);
      expect(restored).toEqual(expected);
      expect(await customField(target.sql)).toEqual({ label: "Yedek alanı", type: "text", value: "Yedekten döner", indexed: true });
      await expect(restoreBackup(backup, target.sql, { kind: "files", storage })).rejects.toThrow(
        "This database already holds organizations or users",
      );
      expect(await fingerprints(target.sql)).toEqual(restored);
    } finally {
      await target.close();
    }
  });

  it("restores into a Supabase project: rows over SQL, bytes through its Storage API, and the people sign in", async () => {
    const database = await createTestDatabase({ prefix: "crm_restore_api" });
    databases.push(database);
    // A Supabase-compatible project over that database (Auth, Data API, Storage API).
    const project = await startStack({ port: await freePort(), keys, databaseUrl: database.url, storageDir: join(scratch, "api-storage") });
    const target = await openSqlConnection({ databaseUrl: database.url });
    try {
      await restoreBackup(backup, target.sql, { kind: "api", url: project.url, secretKey: keys.secretKey });
      expect(withoutStorageAndAccounts(await fingerprints(target.sql))).toEqual(withoutStorageAndAccounts(expected));
      const [accounts] = await target.sql.query<{ users: number; with_null_token: number }>(
        `select count(*)::int as users,
                count(*) filter (where confirmation_token is null or email_change_token_current is null or reauthentication_token is null
                                    or phone_change is null or phone_change_token is null)::int as with_null_token
           from auth.users`,
      );
      expect(accounts).toEqual({ users: backup.manifest.rows["auth.users"], with_null_token: 0 });
      const download = await fetch(`${project.url}/storage/v1/object/documents/${objectName}`, {
        headers: { apikey: keys.secretKey, authorization: `Bearer ${keys.secretKey}` },
      });
      expect(download.headers.get("content-type")).toBe("application/pdf");
      expect(sha256(new Uint8Array(await download.arrayBuffer()))).toBe(sha256(objectBytes));
      const { client } = await signedInClient(project.url, "admin@demo.test");
      expect(await rpc(client, "get_current_user_context")).toMatchObject({ organization: { slug: "demo" } });
    } finally {
      await target.close();
      await project.stop();
    }
  });

  it("refuses a database at other migrations and leaves it as it was", async () => {
    const database = await createTestDatabase({ prefix: "crm_restore_old" });
    databases.push(database);
    const target = await openSqlConnection({ databaseUrl: database.url });
    try {
      // A target a migration ahead of the backup.
      const taken = backup.manifest.migrations.length;
      await target.sql.query("insert into supabase_migrations.schema_migrations (version, name) values ('20991231000000', 'later')");
      const before = await fingerprints(target.sql);
      await expect(restoreBackup(backup, target.sql, { kind: "files", storage: new FileStorage(join(scratch, "old-storage")) })).rejects.toThrow(
        new RegExp(`the backup was taken at migration \\d{14} \\(${taken} migrations\\); the target is at 20991231000000 \\(${taken + 1}\\)`),
      );
      expect(await fingerprints(target.sql)).toEqual(before);
      // A backup taken before the baseline (the 34 migrations it replaced) is refused the same way.
      const beforeBaseline = { ...backup, manifest: { ...backup.manifest, migrations: ["20261121000100", "20261127000400"] } };
      await target.sql.query("delete from supabase_migrations.schema_migrations where version = '20991231000000'");
      await expect(restoreBackup(beforeBaseline, target.sql, { kind: "files", storage: new FileStorage(join(scratch, "old-storage")) })).rejects.toThrow(
        new RegExp(`the backup was taken at migration 20261127000400 \\(2 migrations\\); the target is at \\d{14} \\(${taken}\\)\\. Restore with the product version that took it\\.`),
      );
    } finally {
      await target.close();
    }
  });
});

describe("npm run db:backup and db:restore", () => {
  it("back up the running product (through its note) into files of mode 600, and restore into a PostgreSQL database with its secrets from the environment or a file of mode 600, never from arguments", async () => {
    const database = await createTestDatabase({ prefix: "crm_restore_cli" });
    databases.push(database);
    const dataDir = join(scratch, "source-pglite");
    // The note `npm start` leaves beside its folder, for this in-process product (a live
    // process started from scripts/start.ts stands in for its process id).
    const stand = spawn(process.execPath, ["-e", "setTimeout(() => {}, 120000)", "scripts/start.ts"], { stdio: "ignore" });
    writeFileSync(`${dataDir}.running.json`, JSON.stringify({ pid: stand.pid, url: source.url }));
    // A folder db:backup makes: its owner's only, as the archive.
    const file = join(scratch, "made-for-backups", "cli.tar.gz");
    // Not spawnSync: the product answering the backup runs in this very process.
    const run = (script: string, args: string[], env: Record<string, string>) =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, ["--import", "tsx", script, ...args], { cwd: projectRoot, env: { ...process.env, ...env } });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (chunk) => (stdout += chunk));
        child.stderr.on("data", (chunk) => (stderr += chunk));
        child.once("close", (status) => resolve({ status, stdout, stderr }));
      });
    try {
      // db:backup asks the running product with that product's own secret key (here given in
      // the environment, as an operator's keys are).
      const backup = await run("scripts/db-backup.ts", [file], { LOCAL_DATA_DIR: dataDir, DATABASE_URL: "", ...keyEnvironment(keys) });
      expect(backup.stderr).toBe("");
      expect(backup.stdout).toMatch(new RegExp(`Backup written: ${file} .*\\n  \\d+ rows in \\d+ tables, 1 Storage objects, taken by the product running at ${source.url}`));
      expect(modeOf(file)).toBe(0o600);
      expect(modeOf(join(scratch, "made-for-backups"))).toBe(0o700);
    } finally {
      stand.kill("SIGKILL");
      rmSync(`${dataDir}.running.json`, { force: true });
    }
    const storageDir = join(scratch, "cli-storage");

    // Secrets never on the command line: a connection string or a key there is refused.
    const password = new URL(database.url);
    password.password = "parola";
    for (const args of [[file, password.toString()], [file, "--supabase", "--secret-key=sb_secret_abc"], [`--db-url=${database.url}`, file]]) {
      const refused = await run("scripts/db-restore.ts", args, { LOCAL_STORAGE_DIR: storageDir });
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain("Nothing restored: a password or key was given on the command line, where every user of this machine can read it (ps)");
      expect(refused.stderr).toContain("--secrets-file SECRETS (mode 600)");
    }
    // A secrets file others can read is refused; one of mode 600 gives the settings.
    const secrets = join(scratch, "restore.env");
    writeFileSync(secrets, `DATABASE_URL=${database.url}\n`, { mode: 0o644 });
    chmodSync(secrets, 0o644);
    const loose = await run("scripts/db-restore.ts", [file, "--secrets-file", secrets], { DATABASE_URL: "", LOCAL_STORAGE_DIR: storageDir });
    expect(loose.status).toBe(1);
    expect(loose.stderr).toContain(`the secrets file ${secrets} can be read by other users of this machine (mode 644): run chmod 600 ${secrets}`);
    expect(existsSync(storageDir)).toBe(false);
    chmodSync(secrets, 0o600);
    const restore = await run("scripts/db-restore.ts", [file, "--secrets-file", secrets], { DATABASE_URL: "", LOCAL_STORAGE_DIR: storageDir });
    expect(restore.stdout).toMatch(/Restored .*:\n {2}\d+ rows in \d+ tables, 1 Storage objects; every table's row count checked/);
    expect(restore.status).toBe(0);
    const again = await run("scripts/db-restore.ts", [file], { DATABASE_URL: database.url, LOCAL_STORAGE_DIR: storageDir });
    expect(again.status).toBe(1);
    expect(again.stderr).toContain("Nothing restored: This database already holds organizations or users");
  });
});
