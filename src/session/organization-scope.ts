import { useCurrentUserContext } from "./current-user-context.ts";
import type { OrganizationScope } from "./query-keys.ts";
import { useSignedInSession } from "./session-context.ts";

// The scope's type lives with the query keys it starts; its users import it from here, with the hook.
export type { OrganizationScope };

/** The scope of the signed-in session, for screens rendered behind <RequireAuth>. */
export function useOrganizationScope(): OrganizationScope {
  const session = useSignedInSession();
  const context = useCurrentUserContext(session.user.id);
  return { sessionUserId: session.user.id, organizationId: context.data?.organization?.id ?? "none" };
}
