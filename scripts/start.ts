/**
 * `npm start`: the whole product locally on one origin, with demo data.
 * PORT (default from .env.example), LOCAL_DATA_DIR (PGlite data, default .data/pglite),
 * DATABASE_URL (use a real PostgreSQL 15+ instead of PGlite), LOCAL_STORAGE_DIR (Storage's
 * object files, default .data/storage).
 */
import { defaultPort, projectRoot } from "./stack/env.ts";
import { startStack } from "./stack/server.ts";

const startedAt = Date.now();
const databaseUrl = process.env.DATABASE_URL || undefined;
const dataDir = process.env.LOCAL_DATA_DIR || `${projectRoot}.data/pglite`;
const storageDir = process.env.LOCAL_STORAGE_DIR || `${projectRoot}.data/storage`;

const stack = await startStack({
  port: Number(process.env.PORT || defaultPort()),
  databaseUrl,
  dataDir: databaseUrl ? undefined : dataDir,
  storageDir,
  seed: true,
  serveApp: true,
});

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
    void stack.stop().then(() => process.exit(0));
  });
}
