/**
 * `npm run db:diff`: compares the declarative schema files (supabase/schemas, and
 * supabase/tenant for the organizations' tables) with the migrations, on two
 * scratch databases of the PostgreSQL at TEST_DATABASE_ADMIN_URL (dropped afterwards).
 *
 *   npm run db:diff               prints every difference and exits 1; prints nothing and
 *                                 exits 0 when the schema files and the migrations agree
 *   npm run db:diff -- <name>     writes supabase/migrations/<UTC time>_<name>.sql holding
 *                                 the difference and prints its path (nothing to write: says so)
 */
import { diffSchemaFiles, isEmptyDifference, isMigrationName, projectSchemaFolders, renderDifference, writeMigration } from "./stack/schema-diff.ts";

const name = process.argv[2];
if (process.argv.length > 3 || (name !== undefined && !isMigrationName(name))) {
  console.error("Usage: npm run db:diff [-- <migration_name>]  (the name in snake_case, e.g. add_deal_source)");
  process.exit(2);
}

try {
  const difference = await diffSchemaFiles(projectSchemaFolders, name ?? "schema files");
  if (name === undefined) {
    if (!isEmptyDifference(difference)) {
      console.log(renderDifference(difference));
      process.exitCode = 1;
    }
  } else if (isEmptyDifference(difference)) {
    console.log("The schema files and the migrations agree: no migration written.");
  } else {
    console.log(writeMigration(difference, name, projectSchemaFolders.migrationsDir));
  }
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 2;
}
