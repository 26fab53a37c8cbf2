/**
 * Settings of the local stack. Values come from the process environment, then `.env`,
 * then the documented dev-only defaults in `.env.example` (the single place they live).
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseEnv } from "node:util";

export const projectRoot = fileURLToPath(new URL("../../", import.meta.url));

function readEnvFile(name: string): Record<string, string | undefined> {
  const path = `${projectRoot}${name}`;
  return existsSync(path) ? parseEnv(readFileSync(path, "utf8")) : {};
}

const fileValues = { ...readEnvFile(".env.example"), ...readEnvFile(".env") };

function setting(name: string): string {
  const value = process.env[name] ?? fileValues[name];
  if (!value) throw new Error(`${name} is not set (see .env.example)`);
  return value;
}

export interface LocalKeys {
  publishableKey: string;
  secretKey: string;
  jwtSecret: string;
}

export function localKeys(): LocalKeys {
  return {
    publishableKey: setting("SUPABASE_PUBLISHABLE_KEY"),
    secretKey: setting("SUPABASE_SECRET_KEY"),
    jwtSecret: setting("SUPABASE_JWT_SECRET"),
  };
}

/**
 * Where `npm start` keeps the product's data: a PostgreSQL database (DATABASE_URL) or the
 * embedded database's folder (LOCAL_DATA_DIR, default .data/pglite), and Storage's object
 * files (LOCAL_STORAGE_DIR, default .data/storage). The one place these defaults live.
 */
export function localData(): { databaseUrl?: string; dataDir: string; storageDir: string } {
  return {
    databaseUrl: process.env.DATABASE_URL || undefined,
    dataDir: process.env.LOCAL_DATA_DIR || `${projectRoot}.data/pglite`,
    storageDir: process.env.LOCAL_STORAGE_DIR || `${projectRoot}.data/storage`,
  };
}

export function defaultPort(): number {
  return Number(setting("PORT"));
}

/**
 * The Supabase CLI binary. The npm wrapper package `supabase` cannot be locked here (the
 * registry lacks some of its other-platform binaries, which `npm ci` then reports missing),
 * so the project depends on the Linux x64 binary package directly, as an optional dependency.
 * Elsewhere, `npx supabase` does the same job.
 */
export const supabaseCli = `${projectRoot}node_modules/@supabase/cli-linux-x64/bin/supabase`;
