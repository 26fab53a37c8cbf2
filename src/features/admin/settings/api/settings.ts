import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { currentUserContextQueryOptions } from "../../../auth/api/get-current-user-context.ts";
import type { Json } from "../../../../types/database.types.ts";
import { parseRpcResult } from "../../../../lib/rpc.ts";
import { supabase } from "../../../../lib/supabase.ts";
import type { UsersScope } from "../../users/api/scope.ts";
import { settingsAnswerSchema, type OrganizationSettings } from "./schemas.ts";

export const adminSettingsKeys = {
  all: (sessionUserId: string, organizationId: string) => ["users", sessionUserId, "admin-settings", organizationId] as const,
};

export function settingsQueryOptions(scope: UsersScope) {
  return queryOptions({
    queryKey: adminSettingsKeys.all(scope.sessionUserId, scope.organizationId),
    queryFn: async () => {
      const { data, error } = await supabase.rpc("get_organization_settings");
      if (error) throw error;
      return parseRpcResult(settingsAnswerSchema, data).settings;
    },
  });
}

export function useOrganizationSettings(scope: UsersScope) {
  return useQuery(settingsQueryOptions(scope));
}

/** Sends only the changed fields; the saved settings replace the cached ones. */
export function useUpdateSettings(scope: UsersScope) {
  const queryClient = useQueryClient();
  const key = adminSettingsKeys.all(scope.sessionUserId, scope.organizationId);
  return useMutation({
    mutationFn: async (changes: Partial<OrganizationSettings>) => {
      const { data, error } = await supabase.rpc("update_organization_settings", { p_changes: changes as Json });
      if (error) throw error;
      return parseRpcResult(settingsAnswerSchema, data).settings;
    },
    onSuccess: (settings, changes) => {
      queryClient.setQueryData(key, settings);
      // The organization's name also shows in the shell.
      if ("name" in changes) void queryClient.invalidateQueries({ queryKey: currentUserContextQueryOptions(scope.sessionUserId).queryKey });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
