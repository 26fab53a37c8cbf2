import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { parseRpcResult } from "@/lib/rpc.ts";
import { supabase } from "@/lib/supabase.ts";
import type { OrganizationScope } from "@/session/organization-scope.ts";
import { queryKeys } from "@/session/query-keys.ts";
import { deleteRoleAnswerSchema, rolesAnswerSchema, saveRoleAnswerSchema, type Permissions } from "./schemas.ts";

export const adminRoleKeys = {
  all: (scope: OrganizationScope) => queryKeys.organization(scope, "admin-roles"),
};

export function rolesQueryOptions(scope: OrganizationScope) {
  return queryOptions({
    queryKey: adminRoleKeys.all(scope),
    queryFn: async () => {
      const { data, error } = await supabase.rpc("get_roles");
      if (error) throw error;
      return parseRpcResult(rolesAnswerSchema, data);
    },
  });
}

export function useRoles(scope: OrganizationScope) {
  return useQuery(rolesQueryOptions(scope));
}

export interface SaveRoleInput {
  key: string;
  name: string;
  permissions: Permissions;
}

/** Creates or replaces a role (its name and whole matrix); the list is read again either way. */
export function useSaveRole(scope: OrganizationScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ key, name, permissions }: SaveRoleInput) => {
      const { data, error } = await supabase.rpc("save_role", { p_key: key, p_name: name, p_permissions: permissions });
      if (error) throw error;
      return parseRpcResult(saveRoleAnswerSchema, data).role;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminRoleKeys.all(scope) }),
  });
}

export function useDeleteRole(scope: OrganizationScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (key: string) => {
      const { data, error } = await supabase.rpc("delete_role", { p_key: key });
      if (error) throw error;
      return parseRpcResult(deleteRoleAnswerSchema, data);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminRoleKeys.all(scope) }),
  });
}
