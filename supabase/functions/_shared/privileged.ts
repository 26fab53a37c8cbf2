/**
 * The frame every privileged function shares (admin work): only POST; the caller is
 * authenticated from their JWT by Auth; the request-forgery token must belong to their
 * session; the body is validated with zod; then the action runs as the caller, so the
 * database decides what they may do (auth.uid(), their bound organization). The caller's
 * client sends the request-forgery token with every RPC call too: the privileged RPCs
 * refuse without a live token of the caller's session (invalid_request_token), so the check
 * here is the early, clear answer and the database's cannot be skipped. The answer
 * keeps the RPC's {success, error, code, ...} and gets a fitting HTTP status.
 */
import type { SupabaseClient } from "@supabase/supabase-js";
import { z } from "zod";
import { authUnavailable, failure, json, preflight } from "./http.ts";
import { checkRequestToken, requestTokenHeader } from "./request-token.ts";

/** The caller's client: their bearer token, and extra headers for every request. */
export type CallerClientFactory = (authorization: string, headers?: Record<string, string>) => SupabaseClient;

/** What our RPCs answer: {success, error?, code?, ...}. */
export type RpcAnswer = { success: boolean; error?: string; code?: string } & Record<string, unknown>;

export type Action<Input> = (caller: SupabaseClient, input: Input) => Promise<RpcAnswer>;

/** HTTP status for a refusal code of the RPCs; anything unlisted is a 400. */
const statusByCode: Record<string, number> = {
  authentication_required: 401,
  admin_required: 403,
  invalid_request_token: 403,
  super_admin_required: 403,
  shared_account: 403,
  self_action: 403,
  self_delete: 403,
  user_not_found: 404,
  organization_not_found: 404,
  slug_taken: 409,
  email_in_use: 409,
  has_records: 409,
  tables_not_found: 409,
  organization_context_required: 409,
  update_failed: 500,
  password_reset_failed: 500,
  analysis_failed: 500,
  transfer_failed: 500,
  server_error: 500,
  too_many_attempts: 429,
  mail_rate_limited: 429,
  mail_not_configured: 409,
  password_reset_unavailable: 409,
  mail_key_missing: 409,
  smtp_password_unreadable: 409,
  smtp_auth_failed: 502,
  smtp_unreachable: 502,
  smtp_tls_failed: 502,
  recipient_refused: 502,
  smtp_failed: 502,
  permission_denied: 403,
  not_found: 404,
  document_not_found: 404,
  stale_record: 409,
  attachment_unreadable: 409,
  quote_not_marked: 409,
};

export function statusFor(answer: RpcAnswer): number {
  return answer.success ? 200 : (statusByCode[answer.code ?? ""] ?? 400);
}

/** Calls an RPC as the caller and returns its JSON answer (a database error becomes a 500 answer). */
export async function callRpc(caller: SupabaseClient, name: string, args: Record<string, unknown>, failureText: string): Promise<RpcAnswer> {
  const { data, error } = await caller.rpc(name, args);
  if (error || data === null || typeof data !== "object") {
    return { success: false, error: failureText, code: "server_error" };
  }
  return data as RpcAnswer;
}

/**
 * Builds a function from a zod schema of its body (a union on `action`) and one action per
 * `action` value.
 */
export function privilegedHandler<Schema extends z.ZodType<{ action: string }>>(
  schema: Schema,
  actions: { [Name in z.output<Schema>["action"]]: Action<Extract<z.output<Schema>, { action: Name }>> },
  clientForCaller: CallerClientFactory,
) {
  return async (request: Request): Promise<Response> => {
    if (request.method === "OPTIONS") return preflight();
    if (request.method !== "POST") return failure(405, "Method not allowed");

    const authorization = request.headers.get("Authorization");
    if (!authorization?.startsWith("Bearer ")) return failure(401, "Authentication required");
    const token = request.headers.get(requestTokenHeader)?.trim();
    const caller = clientForCaller(authorization, token ? { [requestTokenHeader]: token } : {});
    const { data: userData, error: userError } = await caller.auth.getUser(authorization.slice(7));
    if (authUnavailable(userError)) return failure(503, "Service unavailable");
    if (userError || !userData.user) return failure(401, "Authentication required");

    const refused = await checkRequestToken(request, caller);
    if (refused) return refused;

    let body: unknown;
    try {
      body = await request.json();
    } catch {
      return failure(400, "Invalid request", "The body must be JSON.");
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message }));
      return json({ success: false, error: "Invalid request", code: "invalid_request", issues }, 400);
    }

    const input = parsed.data as z.output<Schema>;
    const action = actions[input.action as keyof typeof actions] as Action<typeof input>;
    try {
      const answer = await action(caller, input);
      return json(answer, statusFor(answer));
    } catch {
      return failure(500, "Request failed");
    }
  };
}
