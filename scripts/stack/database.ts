/**
 * The database behind the local stack: embedded PGlite (default) or a real PostgreSQL
 * (DATABASE_URL), with @supabase/lite's Auth/REST/Storage over it. Prepares it the way a
 * hosted project is prepared: lite's system schemas, the platform bootstrap, every
 * migration in order (recorded like the Supabase CLI does), then optionally the seed.
 * Requests then run under the API roles' statement timeout, as PostgREST runs them.
 * Storage (/storage/v1) is on for both backends: metadata and RLS in the real `storage`
 * schema, object bytes in files (storage-files.ts).
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { App, NoopSmsDriver, setExperimental, type EmailDriver } from "@supabase/lite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { createPgliteConnection, type PgliteConnection } from "@supabase/lite/pglite";
import { createPostgresConnection, type PostgresConnection } from "@supabase/lite/postgres";
import { projectRoot, type LocalKeys } from "./env.ts";
import { settingsInOneStatement } from "./data-api-path.ts";
import { reserveOwnConnections, type SentStatement } from "./postgres-reservations.ts";
import { runSqlFolder } from "./schema-files.ts";
import { FileStorage } from "./storage-files.ts";
import { migrateAllTenants } from "./tenant-migrations.ts";

// lite 0.10 serves /storage/v1 (and creates the storage schema) only with this feature on;
// the environment variable EXPERIMENTAL_STORAGE=1 does the same, read once when lite loads.
setExperimental("storage", true);

/** The largest object Storage accepts (the documents bucket says the same). */
export const storageFileSizeLimit = "25MiB";

export interface DatabaseOptions {
  /** A PostgreSQL 15+ URL; when absent, PGlite is used. */
  databaseUrl?: string;
  /** PGlite data directory; when absent (and no databaseUrl), PGlite runs in memory. */
  dataDir?: string;
  /** Apply supabase/seed.sql once (demo data). */
  seed?: boolean;
  /**
   * The folder of Storage's object bytes (`npm start`: .data/storage); when absent, a
   * temporary folder that is removed when the backend closes.
   */
  storageDir?: string;
  /** The migrations folder (default supabase/migrations); tests point it at a copy. */
  migrationsDir?: string;
  /**
   * Prepare from the declarative schema files in this folder (schema-files.ts) instead of
   * the migrations: the scratch databases `npm run db:diff` compares. Nothing is recorded
   * in supabase_migrations.
   */
  schemasDir?: string;
}

/**
 * The stack's own SQL access (superuser): bootstrapping, the front's sign-in checks,
 * scheduled jobs, tests and benchmarks.
 */
export interface SqlRunner {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Runs a script of one or more statements inside one transaction. */
  execScript(script: string): Promise<void>;
  /**
   * Runs `work` inside one transaction on one connection; "snapshot" makes it read only at
   * repeatable read, so everything it reads is one consistent state (a backup).
   */
  transaction<T>(work: (tx: SqlTransaction) => Promise<T>, mode?: "snapshot"): Promise<T>;
}

/** One transaction's statements: queries with parameters, or scripts of several statements. */
export interface SqlTransaction {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  exec(script: string): Promise<void>;
}

/**
 * Every statement lite's connection sends while a listener is on (tests count them per
 * request); `prepared` tells a named statement (one round trip) from an unnamed one.
 */
export interface StatementLog {
  listen(listener: (statement: SentStatement) => void): () => void;
}

function statementLog(): StatementLog & { sent(statement: SentStatement): void } {
  const listeners = new Set<(statement: SentStatement) => void>();
  return {
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    sent(statement) {
      for (const listener of listeners) listener(statement);
    },
  };
}

export interface Backend {
  /** lite's Auth/REST/Storage request handler. */
  api: { fetch(request: Request): Response | Promise<Response> };
  /**
   * The statements lite's connection sends (on PostgreSQL its requests' only; on PGlite,
   * one connection, the stack's own SQL too).
   */
  statements: StatementLog;
  /** The schemas in lite's schema cache (none before its first request). */
  schemaCacheSchemas(): string[];
  sql: SqlRunner;
  /** Where Storage keeps object bytes. */
  storage: FileStorage;
  close(): Promise<void>;
}

/** Where the migrations live in the project. */
export const migrationsDir = `${projectRoot}supabase/migrations`;
const seedPath = "supabase/seed.sql";

function sqlRunnerFor(connection: PgliteConnection | PostgresConnection): SqlRunner {
  if ("exec" in connection.driver) {
    const db = (connection as PgliteConnection).driver;
    return {
      query: async (text, params) => (await db.query(text, params)).rows as never[],
      execScript: async (script) => {
        await db.transaction(async (tx) => {
          await tx.exec(script);
        });
      },
      transaction: (work, mode) =>
        db.transaction(async (tx) => {
          if (mode === "snapshot") await tx.exec("set transaction isolation level repeatable read, read only");
          return work({
            query: async (text, params) => (await tx.query(text, params)).rows as never[],
            exec: async (script) => {
              await tx.exec(script);
            },
          });
        }),
    };
  }
  const db = (connection as PostgresConnection).driver;
  return {
    query: async (text, params) => (await db.unsafe(text, params as never[])) as never[],
    execScript: async (script) => {
      await db.begin(async (tx) => {
        await tx.unsafe(script);
      });
    },
    transaction: async (work, mode) =>
      (await db.begin(mode === "snapshot" ? "isolation level repeatable read read only" : "", (tx) =>
        work({
          query: async (text, params) => (await tx.unsafe(text, params as never[])) as never[],
          exec: async (script) => {
            await tx.unsafe(script);
          },
        }),
      )) as never,
  };
}

function migrationFiles(dir: string): { version: string; name: string; path: string }[] {
  return readdirSync(dir)
    .filter((file) => /^\d{14}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => {
      const [, version, name] = /^(\d{14})_(.+)\.sql$/.exec(file)!;
      return { version, name, path: `${dir}/${file}` };
    });
}

/** Applies pending migrations, each in its own transaction, recorded in schema_migrations. */
async function applyMigrations(sql: SqlRunner, dir: string): Promise<void> {
  const applied = new Set(
    (await sql.query<{ version: string }>("select version from supabase_migrations.schema_migrations")).map(
      (row) => row.version,
    ),
  );
  for (const migration of migrationFiles(dir)) {
    if (applied.has(migration.version)) continue;
    const body = readFileSync(migration.path, "utf8");
    const record = `insert into supabase_migrations.schema_migrations (version, name, statements)
      values ('${migration.version}', '${migration.name}', array[${quoteLiteral(body)}]);`;
    try {
      await sql.execScript(`${body}\n;\n${record}`);
    } catch (error) {
      throw new Error(`Migration ${migration.version}_${migration.name} failed: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
}

async function applySeedOnce(sql: SqlRunner): Promise<boolean> {
  const body = readFileSync(`${projectRoot}${seedPath}`, "utf8");
  const done = await sql.query("select 1 from supabase_migrations.seed_files where path = $1", [seedPath]);
  if (done.length > 0) return false;
  const hash = createHash("sha256").update(body).digest("hex");
  await sql.execScript(`${body}\n;\ninsert into supabase_migrations.seed_files (path, hash)
    values (${quoteLiteral(seedPath)}, '${hash}');`);
  return true;
}

function quoteLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * PGlite's Emscripten runtime writes Postgres's own exit status into process.exitCode: 99
 * when it starts, 100 after a query fails, 0 when it shuts down. Whatever embeds the stack
 * (a test run, the bench, db:reset) must exit with its own code; a failed test run exited 0
 * and a passing one 100. So every call into PGlite puts the exit code back afterwards. (No
 * one else sets it while a query runs: test runners set it once all tests have finished.)
 */
function keepExitCodeAcrossCalls(pglite: PgliteConnection["driver"]) {
  for (const method of ["query", "exec", "transaction", "close"] as const) {
    const original = (pglite[method] as (...args: unknown[]) => Promise<unknown>).bind(pglite);
    Object.assign(pglite, {
      [method]: async (...args: unknown[]) => {
        const exitCode = process.exitCode;
        try {
          return await original(...args);
        } finally {
          process.exitCode = exitCode;
        }
      },
    });
  }
}

/** The object files of a backend: the folder asked for, or a temporary one removed on close. */
function objectFiles(options: DatabaseOptions): { storage: FileStorage; close(): Promise<void> } {
  if (options.storageDir) return { storage: new FileStorage(options.storageDir), close: async () => {} };
  const storage = new FileStorage(mkdtempSync(join(tmpdir(), "crm-storage-")));
  return { storage, close: () => storage.removeAll() };
}

/**
 * The stack's mailer: none. lite's default "mailer" printed every message into the log,
 * codes included ("Reset your password with this code: 904610"), and the front refuses the
 * routes that send codes anyway (auth-front.ts). Whatever still asks for an e-mail gets a
 * line saying none was sent, never a word of the message. SMS likewise, silently.
 * Guarded by tests/integration/front-security.test.ts.
 */
export class NoMailer implements EmailDriver {
  async send(): Promise<void> {
    console.warn("Auth asked to send an e-mail; no mailer is configured, so none was sent (messages are never logged)");
  }
}

/** lite over a connection, configured the way this server plays production. */
function liteApp(connection: PgliteConnection | PostgresConnection, keys: LocalKeys, storage: FileStorage) {
  const app = new App({
    connection,
    api: { schemas: ["public"] },
    auth: {
      enabled: true,
      jwt_secret: keys.jwtSecret,
      jwt_expiry: 3600,
      enable_signup: false,
      publishable_key: keys.publishableKey,
      secret_key: keys.secretKey,
    },
    storage: { enabled: true, file_size_limit: storageFileSizeLimit },
    // Keyless requests must never be served as service_role: this server plays production.
    options: { server: { admin: false }, drivers: { email: new NoMailer(), sms: new NoopSmsDriver({ silent: true }) } },
  } as ConstructorParameters<typeof App>[0]);
  app._storageAdapter = storage;
  return app;
}

type LiteApp = ReturnType<typeof liteApp>;

/**
 * Prepares the database like a hosted project: lite's system schemas, the platform
 * bootstrap, pending migrations (or, when asked, the schema files as one script), the
 * seed when asked, then every organization's tables.
 */
async function prepare(app: LiteApp, sql: SqlRunner, options: DatabaseOptions): Promise<void> {
  await app.ensureSystemSchema();
  await sql.execScript(readFileSync(`${projectRoot}scripts/stack/platform.sql`, "utf8"));
  if (options.schemasDir) await runSqlFolder(options.schemasDir, (script) => sql.execScript(script));
  else await applyMigrations(sql, options.migrationsDir ?? migrationsDir);
  if (options.seed) await applySeedOnce(sql);
  // Template changes reach every organization's tables, one organization per transaction.
  const tenants = await migrateAllTenants(sql.query);
  for (const failure of tenants.failed) {
    console.warn(`tables of organization ${failure.organizationId} not migrated: ${failure.error}`);
  }
}

/**
 * The statement_timeout the migrations give the API roles (alter role … set), or undefined.
 * PostgREST applies a role's settings per request; lite switches roles with SET LOCAL ROLE,
 * which applies none, so the stack gives lite's connection this value itself.
 */
async function apiStatementTimeout(sql: SqlRunner): Promise<string | undefined> {
  const values = await sql.query<{ value: string }>(
    `select distinct substr(setting, length('statement_timeout=') + 1) as value
       from pg_db_role_setting s
       join pg_roles r on r.oid = s.setrole
      cross join unnest(s.setconfig) as setting
      where r.rolname in ('anon', 'authenticated') and s.setdatabase = 0 and setting like 'statement_timeout=%'`,
  );
  if (values.length > 1) throw new Error("anon and authenticated have different statement timeouts; lite serves both on one connection");
  return values[0]?.value;
}

/** `npm run bench`'s "before" of the Data API (scripts/bench/data-api.ts): the cut turned off. */
const dataApiUncut = () => process.env.DATA_API_UNCUT === "1";

/**
 * The backend serving lite over its connection. lite decides once per connection whether
 * to switch to the request's role, and when it first decides so it grants ALL on every
 * schema holding an RLS table to the API roles. The roles exist (platform.sql) and grants
 * are the migrations' business, as on hosted Supabase, so mark the decision as taken.
 * Guarded by the integration tests that prove anon and users cannot reach the private schema.
 */
function servingBackend(
  connection: PgliteConnection | PostgresConnection,
  app: LiteApp,
  sql: SqlRunner,
  storage: FileStorage,
  statements: StatementLog,
  close: () => Promise<void>,
): Backend {
  (connection as unknown as { rlsState: string }).rlsState = "active";
  // The Data API's path cut (data-api-path.ts): one statement of settings per request.
  // DATA_API_UNCUT=1 leaves lite's own path (the bench's "before"; never needed otherwise).
  if (!dataApiUncut()) settingsInOneStatement(connection as never);
  const schemaCacheSchemas = () => {
    const cache = (connection as unknown as { introspection?: { tables?: { schema: string }[] } }).introspection;
    return [...new Set((cache?.tables ?? []).map((table) => table.schema))].sort();
  };
  return { api: app, sql, storage, statements, schemaCacheSchemas, close };
}

/**
 * lite hands an RPC's json and jsonb arguments to postgres.js already as JSON text, and the
 * serializer it registers encodes every value again: on PostgreSQL an object argument
 * arrived as a JSON string ("{\"status\": …}"), so every jsonb parameter (update_user_secure,
 * create_customer, list filters, …) was refused there while PGlite was fine. JSON text now
 * passes through as it is; anything else is still encoded. Guarded by the PostgreSQL
 * backend tests that send objects to jsonb parameters.
 */
function passJsonTextThrough(connection: PostgresConnection) {
  const serializers = (connection.driver as unknown as { options: { serializers: Record<number, (value: unknown) => string> } })
    .options.serializers;
  for (const oid of [114, 3802]) serializers[oid] = (value) => (typeof value === "string" ? value : JSON.stringify(value));
}

/** Closes a PostgreSQL connection pool, forcing what is still open after `seconds`. */
async function endWithin(connection: PostgresConnection, seconds: number) {
  await (connection.driver as unknown as { end(options: { timeout: number }): Promise<void> }).end({ timeout: seconds });
}

/**
 * PostgreSQL: the stack's own pool (preparation, then the stack's SQL, with no timeout, so
 * migrations are never cut short) and lite's pool, whose connections start with the API
 * roles' statement timeout (libpq's `options` startup parameter).
 */
async function openPostgresBackend(databaseUrl: string, options: DatabaseOptions, keys: LocalKeys): Promise<Backend> {
  // postgres.js waits longer and longer between attempts while connecting fails, up to 20 s:
  // after PostgreSQL came back from a restart, sign-ins (the front's checks use this pool)
  // waited that long. At most a second here. Found by `npm run faults`.
  const postgresOptions = { onnotice: () => {}, backoff: (retries: number) => (0.5 + Math.random() / 2) * Math.min(3 ** retries / 100, 1) };
  const stackConnection = createPostgresConnection({ url: databaseUrl, postgresOptions });
  const sql = sqlRunnerFor(stackConnection);
  const files = objectFiles(options);
  await prepare(liteApp(stackConnection, keys, files.storage), sql, options);
  const statementTimeout = await apiStatementTimeout(sql);
  const apiConnection = createPostgresConnection({
    url: databaseUrl,
    postgresOptions: { ...postgresOptions, connection: statementTimeout ? { options: `-c statement_timeout=${statementTimeout}` } : {} },
  });
  passJsonTextThrough(apiConnection);
  const statements = statementLog();
  const reservations = reserveOwnConnections(apiConnection, statements.sent, { cut: !dataApiUncut() });
  return servingBackend(apiConnection, liteApp(apiConnection, keys, files.storage), sql, files.storage, statements, async () => {
    // postgres.js's end() without a timeout waited forever after a load run of 50 clients
    // (`npm run load -- --postgres`: every connection idle, yet the stop never came back);
    // with one, idle connections close at once and anything else within 5 s.
    await endWithin(apiConnection, 5);
    await reservations.end({ timeout: 5 });
    await endWithin(stackConnection, 5);
    await files.close();
  });
}

/** A PGlite connection over a data directory (in memory without one). */
async function pgliteConnection(dataDir: string | undefined): Promise<PgliteConnection> {
  // lite loads pgcrypto into PGlite itself and creates the data directory when missing.
  // pg_trgm backs the Turkish-folded record search (template v2), as on hosted Supabase.
  const connection = await createPgliteConnection({
    ...(dataDir ? { url: dataDir } : {}),
    pgliteOptions: { extensions: { pg_trgm } },
  } as Parameters<typeof createPgliteConnection>[0]);
  keepExitCodeAcrossCalls(connection.driver);
  return connection;
}

/**
 * The database as it is, without lite, preparation or migrations: for tools that must not
 * change it (a backup) or that talk to a database lite does not own (a hosted project).
 */
export async function openSqlConnection(target: { databaseUrl?: string; dataDir?: string }): Promise<{ sql: SqlRunner; close(): Promise<void> }> {
  if (target.databaseUrl) {
    const connection = createPostgresConnection({ url: target.databaseUrl, postgresOptions: { onnotice: () => {}, max: 2 } });
    return { sql: sqlRunnerFor(connection), close: () => endWithin(connection, 5) };
  }
  const connection = await pgliteConnection(target.dataDir);
  return { sql: sqlRunnerFor(connection), close: () => connection.close() };
}

/** PGlite: one in-process connection; after preparation, the API roles' timeout for the session. */
async function openPgliteBackend(options: DatabaseOptions, keys: LocalKeys): Promise<Backend> {
  const connection = await pgliteConnection(options.dataDir);
  const files = objectFiles(options);
  const app = liteApp(connection, keys, files.storage);
  const sql = sqlRunnerFor(connection);
  await prepare(app, sql, options);
  const statementTimeout = await apiStatementTimeout(sql);
  if (statementTimeout) await sql.query("select set_config('statement_timeout', $1, false)", [statementTimeout]);
  // PGlite runs in this process: what lite's Kysely sends is a call of its query method.
  const statements = statementLog();
  const query = connection.driver.query.bind(connection.driver);
  Object.assign(connection.driver, {
    query: (text: string, params?: unknown[], options?: unknown) => {
      statements.sent({ text, parameters: params?.length ?? 0, prepared: false });
      return query(text, params, options as never);
    },
  });
  return servingBackend(connection, app, sql, files.storage, statements, async () => {
    await connection.close();
    await files.close();
  });
}

export async function openBackend(options: DatabaseOptions, keys: LocalKeys): Promise<Backend> {
  return options.databaseUrl ? openPostgresBackend(options.databaseUrl, options, keys) : openPgliteBackend(options, keys);
}
