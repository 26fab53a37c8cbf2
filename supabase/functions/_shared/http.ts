/** Response helpers shared by every function: CORS and the {success, error, message} shape. */
import { isAuthRetryableFetchError } from "@supabase/supabase-js";

export const corsHeaders: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Headers": "authorization, x-client-info, apikey, content-type, x-csrf-token",
  "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
};

export function json(body: unknown, status = 200): Response {
  return Response.json(body, { status, headers: corsHeaders });
}

export function failure(status: number, error: string, message?: string): Response {
  return json({ success: false, error, ...(message ? { message } : {}) }, status);
}

/**
 * Whether Auth could not check the caller's token at all (unreachable, or a 5xx: the
 * database behind it restarting), as opposed to refusing it. Such a call is answered 503,
 * never 401: the app signs out on a function's 401 (src/lib/supabase-fetch.ts), so a moment
 * without the database signed people out. Found by `npm run faults`.
 */
export function authUnavailable(error: unknown): boolean {
  return isAuthRetryableFetchError(error);
}

export function preflight(): Response {
  return new Response("ok", { headers: corsHeaders });
}
