/**
 * `npm run db:reset`: start clean. Removes the PGlite data folder, or with DATABASE_URL
 * drops and recreates that database, and removes Storage's object files (their metadata was
 * in that database). The next `npm start` applies every migration and the seed.
 */
import { rmSync } from "node:fs";
import postgres from "postgres";
import { projectRoot } from "./stack/env.ts";

const databaseUrl = process.env.DATABASE_URL;
if (databaseUrl) {
  const target = new URL(databaseUrl);
  const name = decodeURIComponent(target.pathname.slice(1));
  const maintenance = new URL(databaseUrl);
  maintenance.pathname = "/postgres";
  const admin = postgres(maintenance.toString(), { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`drop database if exists "${name.replace(/"/g, '""')}" with (force)`);
    await admin.unsafe(`create database "${name.replace(/"/g, '""')}"`);
  } finally {
    await admin.end();
  }
  console.log(`Database ${name} recreated; npm start will migrate and seed it.`);
}
const storageDir = process.env.LOCAL_STORAGE_DIR || `${projectRoot}.data/storage`;
rmSync(storageDir, { recursive: true, force: true });
if (!databaseUrl) {
  const dataDir = process.env.LOCAL_DATA_DIR || `${projectRoot}.data/pglite`;
  rmSync(dataDir, { recursive: true, force: true });
  console.log(`Removed ${dataDir}; npm start will migrate and seed a fresh database.`);
}
