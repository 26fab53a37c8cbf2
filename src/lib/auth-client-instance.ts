import { AuthClient } from "@supabase/auth-js";

/** Where the Auth client talks to and keeps its session (auth-client.ts gives them). */
export interface AuthClientSettings {
  supabaseUrl: string;
  publishableKey: string;
  storageKey: string;
  fetch: typeof fetch;
}

/**
 * The app's single Auth client (DESIGN D1, spec §1), set up as supabase-js sets up its own:
 * the publishable key, automatic token refresh, the session kept in the browser. A chunk of
 * its own, reached only through loadAuthClient (auth-client.ts).
 */
export function createAuthClient({ supabaseUrl, publishableKey, storageKey, fetch }: AuthClientSettings) {
  return new AuthClient({
    url: `${supabaseUrl}/auth/v1`,
    headers: { Authorization: `Bearer ${publishableKey}`, apikey: publishableKey },
    autoRefreshToken: true,
    persistSession: true,
    storage: globalThis.localStorage,
    storageKey,
    detectSessionInUrl: false,
    fetch,
  });
}

export type AppAuthClient = ReturnType<typeof createAuthClient>;
