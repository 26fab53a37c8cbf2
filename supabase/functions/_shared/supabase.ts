/** Supabase clients for functions, built from the environment Supabase gives every function. */
import { createClient, type SupabaseClient } from "@supabase/supabase-js";

function requireEnv(name: string): string {
  const value = Deno.env.get(name);
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

/**
 * A client that acts as the caller: every query runs under the caller's JWT and RLS. Extra
 * headers go with every request (the privileged functions forward the caller's
 * x-csrf-token: the privileged RPCs check it themselves).
 */
export function clientForCaller(authorization: string, headers: Record<string, string> = {}): SupabaseClient {
  return createClient(
    requireEnv("SUPABASE_URL"),
    Deno.env.get("SUPABASE_PUBLISHABLE_KEY") ?? requireEnv("SUPABASE_ANON_KEY"),
    {
      global: { headers: { ...headers, Authorization: authorization } },
      auth: { persistSession: false, autoRefreshToken: false },
    },
  );
}

/**
 * A client with the project's secret (service role) key: it bypasses RLS, so a function uses
 * it only for what the database has already allowed the caller (for example, writing the
 * Storage object of an upload the caller's own RPC reserved).
 */
export function serviceClient(): SupabaseClient {
  return createClient(
    requireEnv("SUPABASE_URL"),
    Deno.env.get("SUPABASE_SECRET_KEY") ?? requireEnv("SUPABASE_SERVICE_ROLE_KEY"),
    { auth: { persistSession: false, autoRefreshToken: false } },
  );
}
