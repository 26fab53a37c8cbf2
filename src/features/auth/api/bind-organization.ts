import { useMutation, useQueryClient } from "@tanstack/react-query";
import { rpc } from "@/lib/call-rpc.ts";
import { writeCurrentOrganization } from "@/lib/browser-storage.ts";
import { queryKeys } from "@/session/query-keys.ts";
import { boundOrganizationSchema } from "./organization-schemas.ts";

/**
 * Binds this Auth session to the organization, once (the database refuses a later switch
 * with code organization_switch_disabled, spec section 2).
 */
async function bindOrganization(organizationId: string) {
  const { organization } = await rpc("bind_session_organization", { p_organization_id: organizationId }, boundOrganizationSchema);
  writeCurrentOrganization(organization);
  return organization;
}

export function useBindOrganization(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bindOrganization,
    // Drop (not just mark stale) what was read before the binding, so the guards wait for
    // the bound context instead of acting on the old one.
    onSuccess: () => queryClient.removeQueries({ queryKey: queryKeys.user(userId) }),
  });
}
