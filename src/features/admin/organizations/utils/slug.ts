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

// The same table as private.slug_from_name's translate(): Turkish letters, then other accented ones.
const FOLD_FROM = "ÇĞİIÖŞÜçğıöşüÂÎÛâîûÀÁÄÃÅÈÉÊËÌÍÏÒÓÔÕÙÚÑàáäãåèéêëìíïòóôõùúñ";
const FOLD_TO = "CGIIOSUcgiosuAIUaiuAAAAAEEEEIIIOOOOUUNaaaaaeeeeiiioooouun";
const companyForm = /-(a-s|as|ltd-sti|ltd|sti|inc|llc|gmbh)$/;

/**
 * A slug from a company name, as the database derives it (private.slug_from_name): Turkish
 * and other accented letters folded ("Işık Yazılım" gives isik-yazilim), every other run of
 * characters one hyphen, a trailing company form (A.Ş., Ltd. Şti., Ltd., Inc., GmbH) dropped,
 * at most 30 characters. The form fills the slug with it until the user edits the slug.
 */
export function slugFromName(name: string): string {
  const folded = [...name].map((character) => {
    const index = FOLD_FROM.indexOf(character);
    return index === -1 ? character : FOLD_TO[index];
  });
  let slug = folded.join("").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  for (let shorter = slug.replace(companyForm, ""); shorter !== slug; shorter = slug.replace(companyForm, "")) slug = shorter;
  return slug.slice(0, maxSlugLength).replace(/^-+|-+$/g, "");
}
