import type { ManagedOrganization } from "../api/schemas.ts";

type Searchable = Pick<ManagedOrganization, "name" | "slug">;

/** Organizations whose name or slug contains the search text (Turkish case rules, spaces ignored at the ends). */
export function filterOrganizations<T extends Searchable>(organizations: readonly T[], search: string): T[] {
  const wanted = search.trim().toLocaleLowerCase("tr");
  if (wanted === "") return [...organizations];
  return organizations.filter(
    (organization) =>
      organization.name.toLocaleLowerCase("tr").includes(wanted) || organization.slug.toLocaleLowerCase("tr").includes(wanted),
  );
}

export type TablesStatus =
  | { kind: "error"; error: string }
  | { kind: "notProvisioned" }
  | { kind: "behind"; version: number; latest: number }
  | { kind: "current"; version: number };

/** The state of an organization's own tables: a failed migration first, then how far they are. */
export function tablesStatus(
  organization: Pick<ManagedOrganization, "template_version" | "latest_template_version" | "last_migration_error">,
): TablesStatus {
  const { template_version: version, latest_template_version: latest, last_migration_error: error } = organization;
  if (error) return { kind: "error", error };
  if (version <= 0) return { kind: "notProvisioned" };
  if (version < latest) return { kind: "behind", version, latest };
  return { kind: "current", version };
}

/** Only the fields that differ from the organization's current values. */
export function changedFields<T extends Record<string, unknown>>(current: T, next: T): Partial<T> {
  return Object.fromEntries(Object.entries(next).filter(([key, value]) => current[key] !== value)) as Partial<T>;
}
