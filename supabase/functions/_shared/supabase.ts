/** Supabase clients for functions, built from the environment Supabase gives every function. */
import { createClient, type SupabaseClient } from "@supabase/supabase-js";

function requireEnv(name: string): string {
  const value = Deno.env.get(name);
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

/** A client that acts as the caller: every query runs under the caller's JWT and RLS. */
export function clientForCaller(authorization: string): SupabaseClient {
  return createClient(
    requireEnv("SUPABASE_URL"),
    Deno.env.get("SUPABASE_PUBLISHABLE_KEY") ?? requireEnv("SUPABASE_ANON_KEY"),
    {
      global: { headers: { Authorization: authorization } },
      auth: { persistSession: false, autoRefreshToken: false },
    },
  );
}
