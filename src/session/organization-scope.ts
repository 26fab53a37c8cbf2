import { useCurrentUserContext } from "./current-user-context.ts";
import { useSignedInSession } from "./session-context.ts";

/** Who is asking and for which organization: the start of every organization-scoped query key. */
export interface OrganizationScope {
  sessionUserId: string;
  /** The organization the session works in ("none" before the context is known). */
  organizationId: string;
}

/** The scope of the signed-in session, for screens rendered behind <RequireAuth>. */
export function useOrganizationScope(): OrganizationScope {
  const session = useSignedInSession();
  const context = useCurrentUserContext(session.user.id);
  return { sessionUserId: session.user.id, organizationId: context.data?.organization?.id ?? "none" };
}
