import { useCurrentUserContext } from "@/features/auth/api/get-current-user-context.ts";
import { useSignedInSession } from "@/features/auth/session/session-context.ts";

export interface UsersScope {
  sessionUserId: string;
  /** The organization the session works in ("none" before the context is known). */
  organizationId: string;
}

/** Who is asking and for which organization: the start of every query key of this screen. */
export function useUsersScope(): UsersScope {
  const session = useSignedInSession();
  const context = useCurrentUserContext(session.user.id);
  return { sessionUserId: session.user.id, organizationId: context.data?.organization?.id ?? "none" };
}
