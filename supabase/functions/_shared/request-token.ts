/**
 * The request-forgery check of privileged functions (spec sections 3 and 9). The app sends the
 * token it got from `issue_request_token` in the `x-csrf-token` header; the database says
 * whether it is a live token of the caller's own Auth session, so the question is asked with
 * the caller's client (their JWT), never with the secret key.
 */
import type { SupabaseClient } from "@supabase/supabase-js";
import { failure } from "./http.ts";

export const requestTokenHeader = "x-csrf-token";

/** Tokens are 44 characters (32 bytes, base64); anything much longer is not one. */
const maxTokenLength = 256;

export function invalidRequestToken(): Response {
  return failure(403, "Invalid request token");
}

/**
 * Null when the request carries a live token of the caller's session; otherwise the 403 answer
 * to send back.
 */
export async function checkRequestToken(request: Request, caller: Pick<SupabaseClient, "rpc">): Promise<Response | null> {
  const token = request.headers.get(requestTokenHeader)?.trim();
  if (!token || token.length > maxTokenLength) return invalidRequestToken();
  try {
    const { data, error } = await caller.rpc("verify_request_token", { p_token: token });
    return !error && data === true ? null : invalidRequestToken();
  } catch {
    return invalidRequestToken();
  }
}
