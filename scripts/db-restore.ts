/**
 * `npm run db:restore FILE`: brings a backup (`npm run db:backup`) back.
 *
 * Into the product's own data (the settings of `npm start`), with the product stopped:
 *   - embedded database: the current data and Storage folders are kept aside
 *     (`<folder>.before-restore-<time>`), a fresh database gets the migrations and the
 *     backup; if anything fails, the folders are put back and nothing has changed.
 *   - DATABASE_URL (PostgreSQL 15+): the database must hold no data yet (a new database, or
 *     one with only the migrations applied); the migrations are applied when missing.
 *
 * Into a hosted Supabase project (README, "Moving to Supabase"): `-- --supabase` with
 * SUPABASE_DB_URL (the project's connection string), SUPABASE_URL and SUPABASE_SECRET_KEY;
 * the project must have the migrations applied (`supabase db push`) and no data. Rows go
 * in over SQL, object bytes through the project's Storage API. `--objects-only` uploads
 * the objects again (after an upload failed).
 *
 * Secrets (the connection strings' passwords, the secret key) come from the environment or
 * from `--secrets-file FILE` (KEY=value lines; a file only its owner can read, mode 600),
 * never from the command line: arguments are readable by every user of the machine (`ps`)
 * and stay in the shell's history, so a secret given as an argument is refused.
 */
import { existsSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { parseEnv } from "node:util";
import { BackupError, UploadError, openBackup, restoreBackup, uploadObjects, type OpenedBackup, type BackupSummary } from "./stack/backup.ts";
import { openBackend, openSqlConnection } from "./stack/database.ts";
import { generateKeys, localData } from "./stack/env.ts";
import { runningProduct } from "./stack/running.ts";

const usage = `Usage:
  npm run db:restore FILE                          into the product's own data (the settings of npm start;
                                                   DATABASE_URL from the environment for a PostgreSQL)
  npm run db:restore FILE -- --supabase            into a Supabase project: SUPABASE_DB_URL, SUPABASE_URL and
                                                   SUPABASE_SECRET_KEY from the environment
  npm run db:restore FILE -- --supabase --objects-only   the Storage objects again, after an upload failed
  Add --secrets-file SECRETS to read those settings from a file instead (KEY=value lines, mode 600).
  Never put a password or a key on the command line: every user of this machine can read it (ps).`;

/** The settings a secrets file may give (the ones that hold passwords and keys). */
const secretSettings = ["DATABASE_URL", "SUPABASE_DB_URL", "SUPABASE_URL", "SUPABASE_SECRET_KEY"];

/** An argument that is a secret: a connection string with a password, an API key, a JWT. */
function looksSecret(argument: string): boolean {
  return (
    /postgres(ql)?:\/\/[^/\s@]*:[^/\s@]+@/i.test(argument) ||
    /sb_secret_|sb_publishable_/.test(argument) ||
    /eyJ[\w-]+\.[\w-]+\.[\w-]+/.test(argument) ||
    /^--?(db-?url|database-?url|connection|password|passwd|secret|secret-?key|service-?role-?key|jwt-?secret|key)(=|$)/i.test(argument)
  );
}

const secretOnCommandLine = new BackupError(
  "a password or key was given on the command line, where every user of this machine can read it (ps) and the shell keeps it in\n" +
    "its history. Pass it in the environment (SUPABASE_DB_URL, SUPABASE_URL, SUPABASE_SECRET_KEY; DATABASE_URL for a PostgreSQL\n" +
    "of your own), or in a file only you can read: npm run db:restore FILE -- --supabase --secrets-file SECRETS (mode 600).\n" +
    "Then change that password or key: it has been seen",
);

interface Arguments {
  file?: string;
  toSupabase: boolean;
  objectsOnly: boolean;
  secretsFile?: string;
  help: boolean;
}

/** The command line, strictly: one FILE and the known options; a secret anywhere is refused. */
function parseArguments(args: string[]): Arguments {
  if (args.some(looksSecret)) throw secretOnCommandLine;
  const parsed: Arguments = { toSupabase: false, objectsOnly: false, help: false };
  for (let index = 0; index < args.length; index += 1) {
    const argument = args[index];
    // npm passes what follows its `--`; run directly (tsx), the `--` itself may come through.
    if (argument === "--") continue;
    if (argument === "--supabase") parsed.toSupabase = true;
    else if (argument === "--objects-only") parsed.objectsOnly = true;
    else if (argument === "--help" || argument === "-h") parsed.help = true;
    else if (argument === "--secrets-file" || argument.startsWith("--secrets-file=")) {
      const value = argument === "--secrets-file" ? args[(index += 1)] : argument.slice("--secrets-file=".length);
      if (!value) throw new BackupError(`--secrets-file needs the file's name\n${usage}`);
      parsed.secretsFile = value;
    } else if (argument.startsWith("-")) throw new BackupError(`unknown option ${argument}\n${usage}`);
    else if (parsed.file) throw new BackupError(`one backup at a time (${parsed.file}, then ${argument})\n${usage}`);
    else parsed.file = argument;
  }
  return parsed;
}

/**
 * The settings of a secrets file, which must be a regular file of this user that no other
 * user can read or write (mode 600 or stricter, as ssh asks of its keys). Its values are
 * used over the environment's.
 */
function readSecretsFile(path: string): Record<string, string> {
  let status;
  try {
    status = statSync(path);
  } catch (error) {
    throw new BackupError(`the secrets file ${path} cannot be read (${(error as NodeJS.ErrnoException).code})`);
  }
  if (!status.isFile()) throw new BackupError(`the secrets file ${path} is not a file`);
  const mode = status.mode & 0o777;
  if (process.platform !== "win32") {
    if ((mode & 0o077) !== 0) {
      throw new BackupError(`the secrets file ${path} can be read by other users of this machine (mode ${mode.toString(8)}): run chmod 600 ${path}`);
    }
    if (process.getuid && status.uid !== process.getuid()) throw new BackupError(`the secrets file ${path} belongs to another user`);
  }
  const values = parseEnv(readFileSync(path, "utf8"));
  return Object.fromEntries(secretSettings.filter((name) => values[name]).map((name) => [name, values[name]!]));
}

const startedAt = Date.now();
/** `--objects-only`: only the Storage objects, again (into a Supabase project). */
let objectsOnly = false;

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new BackupError(`${name} is not set: put it in the environment or in --secrets-file (see README, "Moving to Supabase")`);
  return value;
}

/** Into a hosted Supabase project: SQL for the rows, its Storage API for the bytes. */
async function intoSupabase(backup: OpenedBackup): Promise<BackupSummary> {
  const target = { url: required("SUPABASE_URL"), secretKey: required("SUPABASE_SECRET_KEY") };
  if (objectsOnly) {
    await uploadObjects(backup, target);
    return { rows: 0, tables: 0, objects: backup.manifest.objects.length, missing: 0 };
  }
  const connection = await openSqlConnection({ databaseUrl: required("SUPABASE_DB_URL") });
  try {
    return await restoreBackup(backup, connection.sql, { kind: "api", ...target });
  } finally {
    await connection.close();
  }
}

/** A folder with something in it is moved aside; returns where to (or null). */
function setAside(folder: string, stamp: string): string | null {
  if (!existsSync(folder) || readdirSync(folder).length === 0) return null;
  const aside = `${folder}.before-restore-${stamp}`;
  renameSync(folder, aside);
  return aside;
}

/** Into the product's own data (the settings of `npm start`). */
async function intoLocal(backup: OpenedBackup): Promise<{ report: BackupSummary; kept: string[] }> {
  const { databaseUrl, dataDir, storageDir } = localData();
  const running = databaseUrl ? null : runningProduct(dataDir);
  if (running) throw new BackupError(`the product is running at ${running.url} (process ${running.pid}): stop it first`);
  const stamp = new Date().toISOString().slice(0, 19).replace(/[-:]/g, "").replace("T", "-");
  const folders = databaseUrl ? [storageDir] : [dataDir, storageDir];
  const aside = folders.map((folder) => setAside(folder, stamp));
  const putBack = () =>
    folders.forEach((folder, index) => {
      rmSync(folder, { recursive: true, force: true });
      if (aside[index]) renameSync(aside[index], folder);
    });
  try {
    // lite needs keys to open; the restore serves no request, so throwaway ones do.
    const backend = await openBackend({ databaseUrl, dataDir: databaseUrl ? undefined : dataDir, storageDir, seed: false }, generateKeys());
    try {
      const report = await restoreBackup(backup, backend.sql, { kind: "files", storage: backend.storage });
      return { report, kept: aside.filter((folder): folder is string => folder !== null) };
    } finally {
      await backend.close();
    }
  } catch (error) {
    putBack();
    throw error;
  }
}

try {
  const parsed = parseArguments(process.argv.slice(2));
  if (parsed.help) {
    console.log(usage);
    process.exit(0);
  }
  const { file, toSupabase } = parsed;
  objectsOnly = parsed.objectsOnly;
  if (!file) throw new BackupError(`say which backup\n${usage}`);
  if (parsed.secretsFile) Object.assign(process.env, readSecretsFile(parsed.secretsFile));
  const backup = await openBackup(resolve(file));
  try {
    const { report, kept } = toSupabase ? { report: await intoSupabase(backup), kept: [] } : await intoLocal(backup);
    console.log(
      `Restored ${file} (taken ${backup.manifest.takenAt} from ${backup.manifest.source}) in ${((Date.now() - startedAt) / 1000).toFixed(1)} s:\n` +
        `  ${report.rows} rows in ${report.tables} tables, ${report.objects} Storage objects; every table's row count checked.\n` +
        "  Everyone signs in again (sessions are not part of a backup)." +
        kept.map((folder) => `\n  The data from before is kept in ${folder}; delete it when you no longer need it.`).join(""),
    );
  } finally {
    await backup.dispose();
  }
  process.exit(0);
} catch (error) {
  const message = (error instanceof BackupError ? error.message : (error as Error).message.split("\n")[0]).replace(/\.$/, "");
  console.error(error instanceof UploadError ? `Restore not finished: ${message}.` : `Nothing restored: ${message}.\nThe target is as it was.`);
  process.exit(1);
}
