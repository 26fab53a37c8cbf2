/**
 * The session organization's settings: one cache entry for the sales modules and the admin
 * screens. The schemas live in organization-settings-schema.ts (no client there, so pure
 * code and its tests can use them).
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { rpc } from "@/lib/call-rpc.ts";
import { useOrganizationScope, type OrganizationScope } from "./organization-scope.ts";
import { settingsAnswerSchema } from "./organization-settings-schema.ts";
import { queryKeys } from "./query-keys.ts";

export {
  dealStageSchema,
  organizationSettingsSchema,
  settingsAnswerSchema,
  stageOutcomes,
  type DealStage,
  type OrganizationSettings,
  type StageOutcome,
} from "./organization-settings-schema.ts";

export const organizationSettingsKey = (scope: OrganizationScope) => queryKeys.organization(scope, "organization-settings");

export function settingsQueryOptions(scope: OrganizationScope) {
  return queryOptions({
    queryKey: organizationSettingsKey(scope),
    queryFn: async () => (await rpc("get_organization_settings", {}, settingsAnswerSchema)).settings,
    staleTime: 60_000,
  });
}

/** The session organization's settings. */
export function useOrganizationSettings() {
  return useQuery(settingsQueryOptions(useOrganizationScope()));
}
