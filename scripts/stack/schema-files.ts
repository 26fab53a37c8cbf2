/**
 * The declarative schema files: supabase/schemas/NN_<concern>.sql hold the current text
 * of every product object, supabase/tenant/NN_<concern>.sql the current shape of
 * an organization's own schema. Each folder is read as ONE script, its files in filename
 * order, so a file may use what an earlier file created; an error names the file and line.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "./env.ts";

/** Where the schema files live in the project. */
export const schemasDir = `${projectRoot}supabase/schemas`;

/** Where the shape of an organization's own schema lives (not part of the Supabase CLI's schema_paths). */
export const tenantSchemasDir = `${projectRoot}supabase/tenant`;

/** One folder's .sql files (not its subfolders), in filename order, as one script. */
export interface SqlFolderScript {
  /** The files' text joined in order, each ended by a statement separator. */
  script: string;
  /**
   * The file and line holding a character of the script (1-based, as PostgreSQL reports
   * an error's position), or undefined outside every file.
   */
  locate(position: number): { file: string; line: number } | undefined;
}

/** Reads a folder's .sql files in filename order into one script; fails when there are none. */
export function sqlFolderScript(dir: string): SqlFolderScript {
  let names: string[];
  try {
    names = readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith(".sql"))
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    throw new Error(`The schema folder ${dir} cannot be read: ${(error as Error).message}`, { cause: error });
  }
  if (names.length === 0) throw new Error(`The schema folder ${dir} holds no .sql file.`);
  const parts = names.map((name) => ({ name, text: `${readFileSync(join(dir, name), "utf8")}\n;\n` }));
  return {
    script: parts.map((part) => part.text).join(""),
    locate(position) {
      let start = 0;
      for (const part of parts) {
        if (position <= start + part.text.length) {
          const line = part.text.slice(0, position - start).split("\n").length;
          return { file: join(dir, part.name), line };
        }
        start += part.text.length;
      }
      return undefined;
    },
  };
}

/**
 * Runs a folder's script through `run` (one transaction) and turns a failure into an error
 * that names the file and line PostgreSQL pointed at, when it pointed at one: `position`
 * for a script sent as it is, `internal_position` for one a function runs with EXECUTE.
 */
export async function runSqlFolder(
  dir: string,
  run: (script: string) => Promise<void>,
  positionField: "position" | "internal_position" = "position",
): Promise<void> {
  const folder = sqlFolderScript(dir);
  try {
    await run(folder.script);
  } catch (error) {
    const position = Number((error as Record<string, unknown>)[positionField]);
    const place = Number.isFinite(position) && position > 0 ? folder.locate(position) : undefined;
    const where = place ? `${place.file}, line ${place.line}` : dir;
    throw new Error(`The schema files failed (${where}): ${(error as Error).message}`, { cause: error });
  }
}
