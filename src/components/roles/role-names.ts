/**
 * The one source of role names: each organization's roles as its admins named them
 * (private.organization_roles, read with get_roles, which every member may call). The users
 * page, the roles page and the profile show these names; the catalogue's labels
 * (organizationRoleLabel) only stand in while they load, or where no organization is bound
 * yet (choosing an organization at sign-in), and carry the same default names.
 */
import { useQuery } from "@tanstack/react-query";
import type { TFunction } from "i18next";
import { z } from "zod";
import { rpc } from "@/lib/call-rpc.ts";
import { organizationRoleLabel, organizationRoles } from "@/lib/organization-roles.ts";
import { useOrganizationScope, type OrganizationScope } from "@/session/organization-scope.ts";
import { queryKeys } from "@/session/query-keys.ts";

export interface NamedRole {
  key: string;
  name: string;
}

/**
 * The key of the organization's roles; the roles page keeps its matrices under it, so what
 * it saves refreshes every name shown (invalidate this key).
 */
export const roleNamesKey = (scope: OrganizationScope) => queryKeys.organization(scope, "roles");

const rolesSchema = z.object({ roles: z.array(z.looseObject({ key: z.string(), name: z.string() })) });

/** The name to show for a role key: the organization's own, else the catalogue's (a key the app does not know as stored). */
export function roleName(t: TFunction, roles: readonly NamedRole[] | undefined, key: string): string {
  return roles?.find((role) => role.key === key)?.name ?? organizationRoleLabel(t, key);
}

/** The roles to offer (the organization's, in its order); the default keys while they load. */
export function roleOptions(t: TFunction, roles: readonly NamedRole[] | undefined, extra?: string): { value: string; label: string }[] {
  const keys = roles ? roles.map((role) => role.key) : [...organizationRoles];
  if (extra && !keys.includes(extra)) keys.push(extra);
  return keys.map((key) => ({ value: key, label: roleName(t, roles, key) }));
}

/** The session organization's roles with their names. */
export function useRoleNames() {
  const scope = useOrganizationScope();
  return useQuery({
    queryKey: roleNamesKey(scope),
    queryFn: async (): Promise<NamedRole[]> =>
      (await rpc("get_roles", {}, rolesSchema)).roles.map(({ key, name }) => ({ key, name })),
    staleTime: 60_000,
  });
}
