import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { rpc } from "@/lib/call-rpc.ts";
import { writeCurrentOrganization } from "@/lib/browser-storage.ts";
import { queryKeys } from "@/session/query-keys.ts";
import { memberOrganizationSchema } from "@/session/schemas.ts";

/** Answer of `super_admin_switch_organization`. */
export const switchedOrganizationSchema = z.object({
  success: z.literal(true),
  organization: memberOrganizationSchema,
});

export type SwitchedOrganization = z.infer<typeof switchedOrganizationSchema>["organization"];

/** Re-binds this session to another organization on the server (audited in both organizations). */
async function switchOrganization(organizationId: string) {
  const { organization } = await rpc("super_admin_switch_organization", { p_organization_id: organizationId }, switchedOrganizationSchema);
  writeCurrentOrganization(organization);
  return organization;
}

/**
 * The switch, then everything read for this user starts over: reset (not just marked stale),
 * so that the guards, the sidebar and every organization-scoped screen wait for the new
 * binding's context instead of showing the previous organization's data.
 */
export function useSwitchOrganization(userId: string, onSwitched: (organization: SwitchedOrganization) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: switchOrganization,
    // Here rather than in mutate(): the reset unmounts the guarded page while its context reloads.
    onSuccess: (organization) => {
      onSwitched(organization);
      void queryClient.resetQueries({ queryKey: queryKeys.user(userId) });
    },
  });
}
