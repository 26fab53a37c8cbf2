/**
 * `npm start`: the whole product locally on one origin, with demo data.
 * PORT (default 54321), SMTP_PORT (the local mail server's, default 54325), HOST (the address it listens on, default 127.0.0.1: this machine
 * only), LOCAL_DATA_DIR (PGlite data, default .data/pglite), DATABASE_URL (use a real
 * PostgreSQL 15+ instead of PGlite), LOCAL_STORAGE_DIR (Storage's object files, default
 * .data/storage), START_MIN_FREE_MB (the free space a start needs, default 100), the keys
 * (scripts/stack/env.ts: the installation's own, made on the first start and kept in
 * .installation-keys.env or LOCAL_KEYS_FILE, unless SUPABASE_PUBLISHABLE_KEY,
 * SUPABASE_SECRET_KEY and SUPABASE_JWT_SECRET are set in the environment or .env).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { KeyError, defaultMailPort, defaultPort, installationKeys, isLoopbackHost, keyFilePath, listenHost, localData, projectRoot, publishedSecrets, type LocalKeys } from "./stack/env.ts";
import { markRunning, runningProduct } from "./stack/running.ts";
import { startStack } from "./stack/server.ts";

const startedAt = Date.now();
const { databaseUrl, dataDir, storageDir } = localData();

function cannotStart(reason: string, advice: string): never {
  console.error(`\n  Satış CRM cannot start: ${reason}.\n  ${advice}\n`);
  process.exit(1);
}

function productKeys(): LocalKeys {
  try {
    return installationKeys();
  } catch (error) {
    if (!(error instanceof KeyError)) throw error;
    cannotStart(error.message, "Nothing was opened.");
  }
}
const keys = productKeys();

/**
 * Published keys (env.ts's list: the old `.env.example` values, the tests' keys) let
 * anyone who can reach the product sign a token as any user: never beyond this machine.
 * Checked before anything is opened.
 */
const host = listenHost();
const published = publishedSecrets(keys);
if (published.length > 0 && !isLoopbackHost(host)) {
  cannotStart(
    `it would listen on ${host}, where other machines reach it, with published keys: ${published.join(" and ")} ` +
      `${published.length > 1 ? "are values" : "is a value"} printed in public, with which anyone can sign in as any user or take a full backup`,
    `Remove SUPABASE_JWT_SECRET, SUPABASE_SECRET_KEY and SUPABASE_PUBLISHABLE_KEY from .env and the environment: npm start then uses\n` +
      `  this installation's own keys (made on its first start, kept in ${keyFilePath()}, mode 600). Or set keys of your own,\n` +
      "  or listen on this machine only (HOST=127.0.0.1, the default). Nothing was opened.",
  );
}

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

/**
 * Whether the built app (dist/, or APP_DIST_DIR) carries this product's publishable key:
 * `vite build` bakes it in, and an app built with other keys (deleted key file, a build for
 * the tests) could not call the API at all.
 */
function builtAppProblem(publishableKey: string): string | null {
  const distRoot = process.env.APP_DIST_DIR ?? `${projectRoot}dist`;
  const assets = join(distRoot, "assets");
  if (!existsSync(join(distRoot, "index.html")) || !existsSync(assets)) return `the built app is missing (${distRoot})`;
  const carries = readdirSync(assets).some((name) => name.endsWith(".js") && readFileSync(join(assets, name), "utf8").includes(publishableKey));
  return carries ? null : `the built app in ${distRoot} was built with other keys than this product's`;
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

const appProblem = builtAppProblem(keys.publishableKey);
if (appProblem) {
  cannotStart(appProblem, "Run `npm start` (it builds the app first), or `npx vite build` before `tsx scripts/start.ts`.");
}

const stack = await startStack({
  port: defaultPort(),
  mailPort: defaultMailPort(),
  host,
  keys,
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
  Mail: kept by the local mail server (SMTP 127.0.0.1:${stack.mail.port}), never delivered; read it at ${stack.url}/_stack/mail/inbox

  Demo accounts (password Demo.1234):
    super@demo.test   super admin
    admin@demo.test   admin, Demo Ticaret A.Ş.
    satis@demo.test   Satış Temsilcisi (sees only their own), Demo Ticaret A.Ş.
    mudur@demo.test   Satış Müdürü (sees the whole organization's), Demo Ticaret A.Ş.
    coklu@demo.test   Kullanıcı in Demo Ticaret A.Ş., user in Acme Sanayi Ltd.
    admin@acme.test   admin, Acme Sanayi Ltd.

  Ctrl-C stops everything.
`);
if (published.length > 0) {
  console.warn(
    `  Note: it runs on published keys (${published.join(", ")}, from the environment or .env): fine on this machine\n` +
      "  only; backups through the running product are refused. Remove them to use this installation's own keys.\n",
  );
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void stack.stop().then(() => {
      unmark();
      process.exit(0);
    });
  });
}
