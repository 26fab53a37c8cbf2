import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { rpc } from "@/lib/call-rpc.ts";
import type { LogoContentType } from "@/lib/logo-types.ts";
import type { OrganizationScope } from "@/session/organization-scope.ts";
import { queryKeys } from "@/session/query-keys.ts";
import type { Json } from "@/types/database.types.ts";
import { organizationSettingsKey, settingsAnswerSchema, settingsQueryOptions, type OrganizationSettings } from "@/session/organization-settings.ts";

export function useOrganizationSettings(scope: OrganizationScope) {
  return useQuery(settingsQueryOptions(scope));
}

/** Sends only the changed fields; the saved settings replace the cached ones. */
export function useUpdateSettings(scope: OrganizationScope) {
  const queryClient = useQueryClient();
  const key = organizationSettingsKey(scope);
  return useMutation({
    mutationFn: async (changes: Partial<OrganizationSettings>) =>
      (await rpc("update_organization_settings", { p_changes: changes as Json }, settingsAnswerSchema)).settings,
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
  const key = organizationSettingsKey(scope);
  return useMutation({
    mutationFn: async (change: LogoChange) => {
      const answer =
        change.action === "set"
          ? await rpc("set_organization_logo", { p_content_type: change.contentType, p_image_base64: change.base64 }, settingsAnswerSchema)
          : await rpc("remove_organization_logo", {}, settingsAnswerSchema);
      return answer.settings;
    },
    onSuccess: (settings) => queryClient.setQueryData(key, settings),
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: queryKeys.organizationLogo(scope.sessionUserId) }),
  });
}
