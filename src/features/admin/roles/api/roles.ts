import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { rpc } from "@/lib/call-rpc.ts";
import { roleNamesKey } from "@/components/roles/role-names.ts";
import type { OrganizationScope } from "@/session/organization-scope.ts";
import { deleteRoleAnswerSchema, rolesAnswerSchema, saveRoleAnswerSchema, type Permissions } from "./schemas.ts";

export const adminRoleKeys = {
  /** Under the role names' key (role-names.ts): invalidating it after a save refreshes the names shown everywhere. */
  all: (scope: OrganizationScope) => [...roleNamesKey(scope), "matrix"] as const,
};

export function rolesQueryOptions(scope: OrganizationScope) {
  return queryOptions({
    queryKey: adminRoleKeys.all(scope),
    queryFn: () => rpc("get_roles", {}, rolesAnswerSchema),
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
    mutationFn: async ({ key, name, permissions }: SaveRoleInput) =>
      (await rpc("save_role", { p_key: key, p_name: name, p_permissions: permissions }, saveRoleAnswerSchema)).role,
    onSettled: () => queryClient.invalidateQueries({ queryKey: roleNamesKey(scope) }),
  });
}

export function useDeleteRole(scope: OrganizationScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (key: string) => rpc("delete_role", { p_key: key }, deleteRoleAnswerSchema),
    onSettled: () => queryClient.invalidateQueries({ queryKey: roleNamesKey(scope) }),
  });
}
