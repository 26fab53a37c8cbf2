import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { LogoContentType } from "@/lib/logo-types.ts";
import type { Json } from "@/types/database.types.ts";
import { parseRpcResult } from "@/lib/rpc.ts";
import { supabase } from "@/lib/supabase.ts";
import type { OrganizationScope } from "@/session/organization-scope.ts";
import { queryKeys } from "@/session/query-keys.ts";
import { settingsAnswerSchema, type OrganizationSettings } from "./schemas.ts";

export const adminSettingsKeys = {
  all: (scope: OrganizationScope) => queryKeys.organization(scope, "admin-settings"),
};

export function settingsQueryOptions(scope: OrganizationScope) {
  return queryOptions({
    queryKey: adminSettingsKeys.all(scope),
    queryFn: async () => {
      const { data, error } = await supabase.rpc("get_organization_settings");
      if (error) throw error;
      return parseRpcResult(settingsAnswerSchema, data).settings;
    },
  });
}

export function useOrganizationSettings(scope: OrganizationScope) {
  return useQuery(settingsQueryOptions(scope));
}

/** Sends only the changed fields; the saved settings replace the cached ones. */
export function useUpdateSettings(scope: OrganizationScope) {
  const queryClient = useQueryClient();
  const key = adminSettingsKeys.all(scope);
  return useMutation({
    mutationFn: async (changes: Partial<OrganizationSettings>) => {
      const { data, error } = await supabase.rpc("update_organization_settings", { p_changes: changes as Json });
      if (error) throw error;
      return parseRpcResult(settingsAnswerSchema, data).settings;
    },
    onSuccess: (settings, changes) => {
      queryClient.setQueryData(key, settings);
      // The organization's name also shows in the shell.
      if ("name" in changes) void queryClient.invalidateQueries({ queryKey: queryKeys.currentUserContext(scope.sessionUserId) });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

export type LogoChange = { action: "set"; contentType: LogoContentType; base64: string } | { action: "remove" };

/** Sets or removes the logo; the settings (logo_updated_at) and the logo everyone sees follow. */
export function useChangeLogo(scope: OrganizationScope) {
  const queryClient = useQueryClient();
  const key = adminSettingsKeys.all(scope);
  return useMutation({
    mutationFn: async (change: LogoChange) => {
      const { data, error } =
        change.action === "set"
          ? await supabase.rpc("set_organization_logo", { p_content_type: change.contentType, p_image_base64: change.base64 })
          : await supabase.rpc("remove_organization_logo");
      if (error) throw error;
      return parseRpcResult(settingsAnswerSchema, data).settings;
    },
    onSuccess: (settings) => queryClient.setQueryData(key, settings),
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: queryKeys.organizationLogo(scope.sessionUserId) }),
  });
}
