import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { parseRpcResult } from "@/lib/rpc.ts";
import { supabase } from "@/lib/supabase.ts";
import { organizationTablesSchema, provisionedTablesSchema, type OrganizationTables } from "./schemas.ts";

/** Who is asking and for which organization: the start of every query key of this screen. */
export interface DatabaseScope {
  sessionUserId: string;
  organizationId: string;
}

export const adminDatabaseKeys = {
  all: (userId: string, organizationId: string) => ["users", userId, "organizations", organizationId, "admin-database"] as const,
  tables: (userId: string, organizationId: string) => [...adminDatabaseKeys.all(userId, organizationId), "tables"] as const,
};

async function getOrganizationTables(): Promise<OrganizationTables> {
  const { data, error } = await supabase.rpc("get_organization_tables");
  if (error) throw error;
  return parseRpcResult(organizationTablesSchema, data);
}

export function organizationTablesQueryOptions(scope: DatabaseScope) {
  return queryOptions({
    queryKey: adminDatabaseKeys.tables(scope.sessionUserId, scope.organizationId),
    queryFn: getOrganizationTables,
  });
}

export function useOrganizationTables(scope: DatabaseScope) {
  return useQuery(organizationTablesQueryOptions(scope));
}

async function provisionTables(slug: string) {
  const { data, error } = await supabase.rpc("create_organization_tables", { org_slug: slug });
  if (error) throw error;
  return parseRpcResult(provisionedTablesSchema, data);
}

/** Provisions the missing tables or upgrades them to the latest template, then reads the view again. */
export function useProvisionTables(scope: DatabaseScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: provisionTables,
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: adminDatabaseKeys.all(scope.sessionUserId, scope.organizationId) }),
  });
}
