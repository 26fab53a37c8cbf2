import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { rpc } from "@/lib/call-rpc.ts";
import type { OrganizationScope } from "@/session/organization-scope.ts";
import { queryKeys } from "@/session/query-keys.ts";
import { organizationTablesSchema, provisionedTablesSchema, type OrganizationTables } from "./schemas.ts";

export const adminDatabaseKeys = {
  all: (scope: OrganizationScope) => queryKeys.organization(scope, "admin-database"),
  tables: (scope: OrganizationScope) => [...adminDatabaseKeys.all(scope), "tables"] as const,
};

async function getOrganizationTables(): Promise<OrganizationTables> {
  return rpc("get_organization_tables", {}, organizationTablesSchema);
}

export function organizationTablesQueryOptions(scope: OrganizationScope) {
  return queryOptions({
    queryKey: adminDatabaseKeys.tables(scope),
    queryFn: getOrganizationTables,
  });
}

export function useOrganizationTables(scope: OrganizationScope) {
  return useQuery(organizationTablesQueryOptions(scope));
}

async function provisionTables(slug: string) {
  return rpc("create_organization_tables", { org_slug: slug }, provisionedTablesSchema);
}

/** Provisions the missing tables or upgrades them to the latest template, then reads the view again. */
export function useProvisionTables(scope: OrganizationScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: provisionTables,
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: adminDatabaseKeys.all(scope) }),
  });
}
