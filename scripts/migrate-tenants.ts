/**
 * `npm run db:migrate-tenants`: after `supabase db push` (or `migration up`), applies
 * template changes to every organization's tables on the database at DATABASE_URL
 * (hosted: the project's direct connection string). The local stack does this itself at start.
 */
import postgres from "postgres";
import { migrateAllTenants } from "./stack/tenant-migrations.ts";

const url = process.env.DATABASE_URL;
if (!url) {
  console.error("Set DATABASE_URL to the database whose organizations should be migrated.");
  process.exit(2);
}
const sql = postgres(url, { max: 1, onnotice: () => {} });
try {
  const report = await migrateAllTenants((text, params) => sql.unsafe(text, params as never[]) as never);
  console.log(`organizations migrated: ${report.migrated}, failed: ${report.failed.length}; spare schemas migrated: ${report.sparesMigrated}`);
  for (const failure of report.failed) console.error(`  ${failure.organizationId}: ${failure.error}`);
  process.exitCode = report.failed.length > 0 ? 1 : 0;
} finally {
  await sql.end();
}
