import { useCurrentUserContext } from "@/session/current-user-context.ts";
import { useSignedInSession } from "@/session/session-context.ts";
import { isAdmin, isSuperAdmin } from "../utils/access.ts";

export type Access =
  | { status: "pending" }
  | { status: "error"; retry: () => void }
  | { status: "ready"; admin: boolean; superAdmin: boolean };

/** What the signed-in user may open, from the current user context (spec §6). */
export function useAccess(): Access {
  const session = useSignedInSession();
  const context = useCurrentUserContext(session.user.id);
  if (context.isPending) return { status: "pending" };
  if (context.isError) return { status: "error", retry: () => void context.refetch() };
  const { user, organization } = context.data;
  return { status: "ready", admin: isAdmin(user, organization?.id), superAdmin: isSuperAdmin(user) };
}
