import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { parseRpcResult } from "@/lib/rpc.ts";
import { supabase } from "@/lib/supabase.ts";
import type { OrganizationScope } from "@/session/organization-scope.ts";
import { queryKeys } from "@/session/query-keys.ts";
import { organizationTablesSchema, provisionedTablesSchema, type OrganizationTables } from "./schemas.ts";

export const adminDatabaseKeys = {
  all: (scope: OrganizationScope) => queryKeys.organization(scope, "admin-database"),
  tables: (scope: OrganizationScope) => [...adminDatabaseKeys.all(scope), "tables"] as const,
};

async function getOrganizationTables(): Promise<OrganizationTables> {
  const { data, error } = await supabase.rpc("get_organization_tables");
  if (error) throw error;
  return parseRpcResult(organizationTablesSchema, data);
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
  const { data, error } = await supabase.rpc("create_organization_tables", { org_slug: slug });
  if (error) throw error;
  return parseRpcResult(provisionedTablesSchema, data);
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
