/**
 * The organization slug rule, the same as the database's (private.is_valid_slug): letters,
 * digits, underscore and hyphen, 1 to 30 characters, and none of the SQL words that the
 * organization's schema name (org_<slug>_<timestamp>) may not contain as a word.
 */
export const maxSlugLength = 30;

export const reservedSlugWords = [
  "drop",
  "delete",
  "select",
  "insert",
  "update",
  "truncate",
  "alter",
  "create",
  "grant",
  "revoke",
  "union",
  "exec",
  "execute",
  "copy",
  "pg",
  "information",
  "schema",
] as const;

export type SlugProblem = "required" | "tooLong" | "characters" | "reservedWord";

const slugCharacters = /^[A-Za-z0-9_-]+$/;

/** The slug as the database compares it: lowercase, hyphens as underscores. */
export function normalizeSlug(slug: string): string {
  return slug.toLowerCase().replaceAll("-", "_");
}

/** What is wrong with a slug, or undefined when the rule allows it. */
export function slugProblem(slug: string): SlugProblem | undefined {
  if (slug === "") return "required";
  if (!slugCharacters.test(slug)) return "characters";
  if (slug.length > maxSlugLength) return "tooLong";
  const words = normalizeSlug(slug).split("_");
  if (words.some((word) => (reservedSlugWords as readonly string[]).includes(word))) return "reservedWord";
  return undefined;
}

/** Whether one of the known slugs already takes this one (the database's comparison). */
export function isSlugTaken(slug: string, knownSlugs: readonly string[]): boolean {
  const wanted = normalizeSlug(slug);
  return knownSlugs.some((known) => normalizeSlug(known) === wanted);
}
