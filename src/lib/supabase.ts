import { createClient } from "@supabase/supabase-js";
import type { Database } from "@/types/database.types.ts";
import { accessToken, publishableKey, reportUnauthorized, sessionAwareFetch, supabaseUrl } from "./auth-client.ts";

/**
 * Where an Edge Function is reached and the key its requests carry, for the one call supabase-js
 * cannot make: an upload that reports its progress (XMLHttpRequest, src/components/documents).
 * Its `unauthorized` applies the same rule as the client's fetch: a 401 to a signed-in request
 * signs out.
 */
export function edgeFunctionEndpoint(name: string) {
  return {
    url: `${supabaseUrl}/functions/v1/${name}`,
    apiKey: publishableKey,
    unauthorized: reportUnauthorized,
  };
}

/**
 * The app's Supabase client for everything past the first screen (DESIGN D1, spec §1): the
 * publishable key, the public schema. Its session is the Auth client's (src/lib/auth-client.ts,
 * which signs in, refreshes and signs out): every request, Realtime included, carries that
 * session's access token, so this client has no Auth of its own (`supabase.auth` is not there).
 */
export const supabase = createClient<Database>(supabaseUrl, publishableKey, {
  accessToken,
  db: { schema: "public" },
  global: { fetch: sessionAwareFetch },
});
