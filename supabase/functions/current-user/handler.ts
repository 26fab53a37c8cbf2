/**
 * Who is calling: the caller's profile and organization as the database sees them.
 * The identity comes from the caller's JWT, checked by Auth; nothing in the body is trusted.
 */
import type { SupabaseClient } from "@supabase/supabase-js";
import { authUnavailable, failure, json, preflight } from "../_shared/http.ts";

export type CallerClientFactory = (authorization: string) => SupabaseClient;

export function createHandler(clientForCaller: CallerClientFactory) {
  return async (request: Request): Promise<Response> => {
    if (request.method === "OPTIONS") return preflight();
    if (request.method !== "GET" && request.method !== "POST") {
      return failure(405, "Method not allowed");
    }
    const authorization = request.headers.get("Authorization");
    if (!authorization?.startsWith("Bearer ")) return failure(401, "Authentication required");

    const caller = clientForCaller(authorization);
    const { data: userData, error: userError } = await caller.auth.getUser(authorization.slice(7));
    if (authUnavailable(userError)) return failure(503, "Service unavailable");
    if (userError || !userData.user) return failure(401, "Authentication required");

    const { data, error } = await caller.rpc("get_current_user_context");
    if (error) return failure(500, "Failed to fetch users");
    const context = data as { success: boolean; error?: string };
    if (!context.success) return failure(404, context.error ?? "User not found");
    return json(context);
  };
}
