/**
 * `npm run gen:types`: generates src/types/database.types.ts from the migrations with the
 * Supabase CLI, against a fresh PostgreSQL database prepared like the local stack's.
 * With --check, fails when the committed file differs (stale types).
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { projectRoot, supabaseCli } from "./stack/env.ts";
import { createTestDatabase } from "./stack/test-database.ts";

export const typesPath = `${projectRoot}src/types/database.types.ts`;

export async function generateTypes(): Promise<string> {
  const database = await createTestDatabase({ prefix: "crm_types" });
  try {
    return execFileSync(
      supabaseCli,
      ["gen", "types", "typescript", `--remote=${database.url}`, "--schema", "public"],
      { cwd: projectRoot, encoding: "utf8", env: { ...process.env, PGSSLMODE: "disable" }, stdio: ["ignore", "pipe", "pipe"] },
    );
  } finally {
    await database.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const generated = await generateTypes();
  if (process.argv.includes("--check")) {
    if (readFileSync(typesPath, "utf8") !== generated) {
      console.error("src/types/database.types.ts is stale: run `npm run gen:types` and commit the result.");
      process.exit(1);
    }
    console.log("generated types are up to date");
  } else {
    writeFileSync(typesPath, generated);
    console.log(`wrote ${typesPath}`);
  }
}
