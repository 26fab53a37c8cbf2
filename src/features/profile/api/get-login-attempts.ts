import { queryOptions, useQuery } from "@tanstack/react-query";
import { rpc } from "@/lib/call-rpc.ts";
import { queryKeys } from "@/session/query-keys.ts";
import { loginAttemptsSchema, type LoginAttempt } from "@/lib/login-attempts.ts";

async function getLoginAttempts(): Promise<LoginAttempt[]> {
  // Without arguments: the caller's own attempts, the 20 newest (spec §9).
  return (await rpc("get_login_attempts", {}, loginAttemptsSchema)).attempts;
}

// The user's own account data, not an organization's: keyed by the user like the user context.
export function loginAttemptsQueryOptions(userId: string) {
  return queryOptions({
    queryKey: [...queryKeys.user(userId), "login-attempts"],
    queryFn: getLoginAttempts,
  });
}

export function useLoginAttempts(userId: string) {
  return useQuery(loginAttemptsQueryOptions(userId));
}
