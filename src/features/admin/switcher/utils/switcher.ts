import type { ManagedOrganization } from "../../organizations/api/schemas.ts";
import { filterOrganizations } from "../../organizations/utils/organizations.ts";
import { compareTurkish } from "@/lib/turkish-sort.ts";

type Choice = Pick<ManagedOrganization, "id" | "name" | "slug" | "is_active">;

/** The active organizations matching the search, the current one first, then by name. */
export function switchChoices<T extends Choice>(organizations: readonly T[], search: string, currentId: string | undefined): T[] {
  return filterOrganizations(
    organizations.filter((organization) => organization.is_active),
    search,
  ).sort((a, b) => Number(b.id === currentId) - Number(a.id === currentId) || compareTurkish(a.name, b.name));
}
