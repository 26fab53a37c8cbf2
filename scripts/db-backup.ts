/**
 * `npm run db:backup [-- FILE]`: a consistent backup of the product's data (database and
 * Storage files) while it runs, as one .tar.gz (what it holds: scripts/stack/backup.ts).
 * FILE defaults to backups/satis-crm-<date>-<time>.tar.gz.
 *
 * Where the data is comes from the same settings as `npm start` (DATABASE_URL,
 * LOCAL_DATA_DIR, LOCAL_STORAGE_DIR). The embedded database opens in one process only, so
 * while the product runs the backup is taken by the product itself (POST /_stack/backup
 * with the installation's secret key); when it is stopped, or on PostgreSQL, it is read
 * directly. The file is written with mode 600 and a folder made for it with mode 700: it
 * holds every account's password hash.
 */
import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { BackupError, backupFileMode, backupSummary, writeBackup, type BackupSummary } from "./stack/backup.ts";
import { openSqlConnection } from "./stack/database.ts";
import { KeyError, installationKeys, localData, projectRoot } from "./stack/env.ts";
import { runningProduct } from "./stack/running.ts";
import { FileStorage } from "./stack/storage-files.ts";

const stamp = new Date().toISOString().slice(0, 19).replace(/[-:]/g, "").replace("T", "-");
const file = resolve(process.argv[2] ?? `${projectRoot}backups/satis-crm-${stamp}.tar.gz`);
const partial = `${file}.partial`;
const { databaseUrl, dataDir, storageDir } = localData();
const startedAt = Date.now();

/** Asks the running product for its backup and saves the answer. */
async function fromRunningProduct(url: string): Promise<BackupSummary> {
  // The running product's own secret key: the same settings (environment, .env, key file) as its start.
  const answer = await fetch(`${url}/_stack/backup`, { method: "POST", headers: { authorization: `Bearer ${installationKeys().secretKey}` } });
  if (!answer.ok || !answer.body) {
    const body = (await answer.json().catch(() => ({}))) as { message?: string };
    throw new BackupError(`the running product refused the backup (${answer.status}: ${body.message ?? "no reason given"})`);
  }
  rmSync(partial, { force: true });
  await pipeline(Readable.fromWeb(answer.body as never), createWriteStream(partial, { mode: backupFileMode }));
  return JSON.parse(answer.headers.get("x-backup-summary") ?? "{}") as BackupSummary;
}

/** Reads the database directly (the product is stopped, or runs on PostgreSQL). */
async function direct(): Promise<BackupSummary> {
  if (!databaseUrl && !existsSync(dataDir)) throw new BackupError(`there is nothing to back up: ${dataDir} does not exist`);
  const connection = await openSqlConnection(databaseUrl ? { databaseUrl } : { dataDir });
  try {
    const description = databaseUrl ? "PostgreSQL" : `PGlite (${dataDir})`;
    return backupSummary(await writeBackup({ sql: connection.sql, storage: new FileStorage(storageDir), description }, partial));
  } finally {
    await connection.close();
  }
}

try {
  // Backups hold password hashes: a folder made for them is its owner's only (the file is 600).
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const running = databaseUrl ? null : runningProduct(dataDir);
  const summary = running ? await fromRunningProduct(running.url) : await direct();
  renameSync(partial, file);
  const megabytes = (statSync(file).size / 2 ** 20).toFixed(1);
  console.log(
    `Backup written: ${file} (${megabytes} MB, ${((Date.now() - startedAt) / 1000).toFixed(1)} s)\n` +
      `  ${summary.rows} rows in ${summary.tables} tables, ${summary.objects} Storage objects` +
      (running ? `, taken by the product running at ${running.url}` : "") +
      `\n  Restore it with: npm run db:restore ${file}`,
  );
  if (summary.missing > 0) console.warn(`  ${summary.missing} Storage objects had no file already before the backup (listed in its manifest).`);
  process.exit(0);
} catch (error) {
  rmSync(partial, { force: true });
  if (!(error instanceof BackupError || error instanceof KeyError)) throw error;
  console.error(`No backup written: ${error.message}.`);
  process.exit(1);
}
