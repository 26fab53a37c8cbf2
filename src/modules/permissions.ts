import { queryOptions, useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { rpc } from "@/lib/call-rpc.ts";
import { queryKeys } from "@/session/query-keys.ts";
import { useSignedInSession } from "@/session/session-context.ts";

const scopeSchema = z.enum(["own", "all"]);

export const myPermissionsSchema = z.object({
  success: z.literal(true),
  organization_id: z.string(),
  is_admin: z.boolean(),
  /** {module: {action: scope}}; a missing action is not allowed. */
  permissions: z.record(z.string(), z.record(z.string(), scopeSchema)),
});
export type MyPermissions = z.infer<typeof myPermissionsSchema>;

async function getMyPermissions(): Promise<MyPermissions> {
  return rpc("get_my_permissions", {}, myPermissionsSchema);
}

/**
 * What the signed-in user may do in the sales modules of their session's organization.
 * Always stale: every module page asks again when it opens, so a change in the roles screen
 * shows from the next page on (the module RPCs enforce it on every call anyway).
 */
export function myPermissionsQueryOptions(userId: string) {
  return queryOptions({
    queryKey: queryKeys.modulePermissions(userId),
    queryFn: getMyPermissions,
    staleTime: 0,
  });
}

export function useMyPermissions() {
  const session = useSignedInSession();
  return useQuery(myPermissionsQueryOptions(session.user.id));
}
