import { queryOptions, useQuery } from "@tanstack/react-query";
import { rpc } from "@/lib/call-rpc.ts";
import { queryKeys } from "./query-keys.ts";
import { currentUserContextSchema, type CurrentUserContext } from "./schemas.ts";

/** The signed-in user, the organization the session is bound to and the ones they may work in. */
async function getCurrentUserContext(): Promise<CurrentUserContext> {
  return rpc("get_current_user_context", {}, currentUserContextSchema);
}

/**
 * The organization is what this call tells us, so the key starts with the signed-in user's id
 * instead: one user's context is never served from another user's cache entry.
 */
export function currentUserContextQueryOptions(userId: string) {
  return queryOptions({ queryKey: queryKeys.currentUserContext(userId), queryFn: getCurrentUserContext });
}

/** The current user context of the signed-in user. */
export function useCurrentUserContext(userId: string) {
  return useQuery(currentUserContextQueryOptions(userId));
}
