import { queryOptions, useQuery } from "@tanstack/react-query";
import { parseRpcResult } from "@/lib/rpc.ts";
import { supabase } from "@/lib/supabase.ts";
import { queryKeys } from "@/session/query-keys.ts";
import { loginAttemptsSchema, type LoginAttempt } from "@/lib/login-attempts.ts";

async function getLoginAttempts(): Promise<LoginAttempt[]> {
  // Without arguments: the caller's own attempts, the 20 newest (spec §9).
  const { data, error } = await supabase.rpc("get_login_attempts");
  if (error) throw error;
  return parseRpcResult(loginAttemptsSchema, data).attempts;
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
