/** supabase-js clients for tests, the way the app builds them (Node 20 needs `ws`). */
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import ws from "ws";
import type { Database } from "../../src/types/database.types.ts";
import { localKeys } from "../../scripts/stack/env.ts";

export const demoPassword = "Demo.1234";

export function anonClient(url: string): SupabaseClient<Database> {
  return createClient<Database>(url, localKeys().publishableKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: ws as never },
  });
}

export async function signedInClient(url: string, email: string, password = demoPassword) {
  const client = anonClient(url);
  const { data, error } = await client.auth.signInWithPassword({ email, password });
  if (error || !data.session) throw new Error(`sign-in as ${email} failed: ${error?.message}`);
  return { client, session: data.session };
}
