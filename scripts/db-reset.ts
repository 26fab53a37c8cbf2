/**
 * `npm run db:reset`: start clean. Removes the PGlite data folder, or with DATABASE_URL
 * drops and recreates that database, and removes Storage's object files (their metadata was
 * in that database). The next `npm start` applies every migration and the seed.
 */
import { rmSync } from "node:fs";
import postgres from "postgres";
import { localData } from "./stack/env.ts";
import { runningProduct } from "./stack/running.ts";

const { databaseUrl, dataDir, storageDir } = localData();
const running = databaseUrl ? null : runningProduct(dataDir);
if (running) {
  console.error(`The product is running at ${running.url} (process ${running.pid}) on ${dataDir}: stop it first.`);
  process.exit(1);
}
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
rmSync(storageDir, { recursive: true, force: true });
if (!databaseUrl) {
  rmSync(dataDir, { recursive: true, force: true });
  console.log(`Removed ${dataDir}; npm start will migrate and seed a fresh database.`);
}
