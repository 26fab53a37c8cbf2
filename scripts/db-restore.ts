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
 */
import { existsSync, readdirSync, renameSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import { BackupError, UploadError, openBackup, restoreBackup, uploadObjects, type OpenedBackup, type BackupSummary } from "./stack/backup.ts";
import { openBackend, openSqlConnection } from "./stack/database.ts";
import { localData, localKeys } from "./stack/env.ts";
import { runningProduct } from "./stack/running.ts";

const args = process.argv.slice(2);
const file = args.find((arg) => !arg.startsWith("--"));
const toSupabase = args.includes("--supabase");
const objectsOnly = args.includes("--objects-only");
const startedAt = Date.now();

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new BackupError(`${name} is not set (see README, "Moving to Supabase")`);
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
    const backend = await openBackend({ databaseUrl, dataDir: databaseUrl ? undefined : dataDir, storageDir, seed: false }, localKeys());
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
  if (!file) throw new BackupError("say which backup: npm run db:restore FILE");
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
