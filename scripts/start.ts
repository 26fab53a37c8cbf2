/**
 * `npm start`: the whole product locally on one origin, with demo data.
 * PORT (default from .env.example), LOCAL_DATA_DIR (PGlite data, default .data/pglite),
 * DATABASE_URL (use a real PostgreSQL 15+ instead of PGlite), LOCAL_STORAGE_DIR (Storage's
 * object files, default .data/storage), START_MIN_FREE_MB (the free space a start needs,
 * default 100).
 */
import { mkdirSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { defaultPort, localData } from "./stack/env.ts";
import { markRunning, runningProduct } from "./stack/running.ts";
import { startStack } from "./stack/server.ts";

const startedAt = Date.now();
const { databaseUrl, dataDir, storageDir } = localData();

/**
 * Why a folder the product writes cannot take it: not creatable or not writable, or less
 * free space on its disk than START_MIN_FREE_MB (default 100). Checked before anything is
 * opened, so a start that cannot work says so and writes nothing.
 */
function folderProblem(folder: string): string | null {
  const minimum = Number(process.env.START_MIN_FREE_MB || 100);
  try {
    mkdirSync(folder, { recursive: true });
    const probe = join(folder, `.write-check-${process.pid}`);
    writeFileSync(probe, "");
    rmSync(probe);
  } catch (error) {
    return `the folder ${folder} cannot be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
  const disk = statfsSync(folder);
  const free = Math.floor((disk.bavail * disk.bsize) / 2 ** 20);
  return free < minimum ? `the disk of ${folder} has ${free} MB free; at least ${minimum} MB are needed` : null;
}

const other = databaseUrl ? null : runningProduct(dataDir);
if (other) {
  console.error(`\n  Satış CRM cannot start: its database in ${dataDir} is in use by the product running at ${other.url} (process ${other.pid}).\n  Stop that one first, or choose another folder with LOCAL_DATA_DIR.\n`);
  process.exit(1);
}

for (const folder of [...(databaseUrl ? [] : [dataDir]), storageDir]) {
  const problem = folderProblem(folder);
  if (problem) {
    console.error(`\n  Satış CRM cannot start: ${problem}.\n  Free some space, or choose other folders with LOCAL_DATA_DIR and LOCAL_STORAGE_DIR.\n`);
    process.exit(1);
  }
}

const stack = await startStack({
  port: Number(process.env.PORT || defaultPort()),
  databaseUrl,
  dataDir: databaseUrl ? undefined : dataDir,
  storageDir,
  seed: true,
  serveApp: true,
});

const unmark = databaseUrl ? () => {} : markRunning(dataDir, stack.url);

const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
console.log(`
  Satış CRM is running at ${stack.url}  (ready in ${seconds} s)
  Database: ${databaseUrl ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${dataDir}`}
  Files (Storage): ${storageDir}

  Demo accounts (password Demo.1234):
    super@demo.test   super admin
    admin@demo.test   admin, Demo Ticaret A.Ş.
    satis@demo.test   user,  Demo Ticaret A.Ş.
    admin@acme.test   admin, Acme Sanayi Ltd.

  Ctrl-C stops everything.
`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void stack.stop().then(() => {
      unmark();
      process.exit(0);
    });
  });
}
