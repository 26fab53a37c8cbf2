/**
 * A fresh PostgreSQL database for one test run, prepared exactly like the local stack
 * prepares its database (lite's system schemas, platform bootstrap, every migration).
 * TEST_DATABASE_ADMIN_URL points at a server where we may create databases
 * (default: the machine's PostgreSQL 15 on 127.0.0.1:5432 with trust auth).
 */
import postgres from "postgres";
import { openBackend, type DatabaseOptions } from "./database.ts";
import { publishedKeySets } from "./env.ts";

export const adminUrl = process.env.TEST_DATABASE_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

function urlForDatabase(name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Creates a database named `<prefix>_<pid>_<time>` and prepares it: from the migrations
 * (or another migrations folder), or from the schema files when `schemasDir` is given.
 */
export async function createTestDatabase(
  options: { prefix?: string } & Pick<DatabaseOptions, "seed" | "migrationsDir" | "schemasDir"> = {},
): Promise<TestDatabase> {
  const name = `${options.prefix ?? "crm_test"}_${process.pid}_${Date.now()}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = urlForDatabase(name);
  // A test database: the tests' keys (tests/support/keys.ts), which lite needs to be set up.
  const { seed, migrationsDir, schemasDir } = options;
  try {
    const backend = await openBackend({ databaseUrl: url, seed, migrationsDir, schemasDir }, publishedKeySets.tests);
    await backend.close();
  } catch (error) {
    await dropDatabase(name);
    throw error;
  }
  return {
    url,
    name,
    drop: () => dropDatabase(name),
  };
}

async function dropDatabase(name: string): Promise<void> {
  const dropper = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await dropper.unsafe(`drop database if exists "${name}" with (force)`);
  } finally {
    await dropper.end();
  }
}
