/**
 * The header search's quick-create commands: a new record of a module, each opening that
 * module's form (the page reads `?new=1`, quotes their editor), offered only to members who
 * may create there, and narrowed by the words typed the way the database folds search text.
 */
import type { ModuleKey } from "@/modules/registry.ts";

/** The modules with a quick-create command. */
export type CommandModule = Extract<ModuleKey, "customers" | "deals" | "quotes" | "tasks">;

export interface SearchCommand {
  module: CommandModule;
  path: string;
}

/** The commands, in the order the search lists them. */
export const searchCommands: readonly SearchCommand[] = [
  { module: "customers", path: "/customers?new=1" },
  { module: "deals", path: "/deals?new=1" },
  { module: "quotes", path: "/quotes/new" },
  { module: "tasks", path: "/tasks?new=1" },
];

/**
 * Turkish-folded text, as private.fold_search folds it: İ I ı Ş ş Ğ ğ Ü ü Ö ö Ç ç to their
 * plain Latin letters, then lower case, so "isik", "Işık" and "IŞIK" are one.
 */
export function foldSearch(text: string): string {
  const from = "İIıŞşĞğÜüÖöÇç";
  const to = "iiiSsGgUuOoCc";
  let folded = "";
  for (const character of text) {
    const index = from.indexOf(character);
    folded += index >= 0 ? to[index] : character;
  }
  return folded.toLowerCase();
}

/** Whether a command's label answers the query: no query, or the folded query within the folded label. */
export function commandMatches(label: string, query: string): boolean {
  const wanted = foldSearch(query.trim());
  return wanted === "" || foldSearch(label).includes(wanted);
}
