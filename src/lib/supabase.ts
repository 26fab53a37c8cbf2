import { createClient } from "@supabase/supabase-js";
import type { Database } from "@/types/database.types.ts";
import { storageKeys } from "./browser-storage.ts";
import { createSessionAwareFetch } from "./supabase-fetch.ts";

// The local stack serves the app and the API on one origin; a hosted project sets the URL.
const url = import.meta.env.VITE_SUPABASE_URL || window.location.origin;
const publishableKey = import.meta.env.VITE_SUPABASE_PUBLISHABLE_KEY;

/** Where supabase-js keeps the session in localStorage (fixed, so sign-out can always clear it). */
export const authStorageKey = storageKeys.auth;

const unauthorizedListeners = new Set<() => void>();

/**
 * Called when the Data API or an Edge Function answers 401 to a signed-in request (spec §4:
 * a 401 forces logout). The session provider listens; returns the unsubscribe function.
 */
export function onUnauthorizedResponse(listener: () => void): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/**
 * Where an Edge Function is reached and the key its requests carry, for the one call supabase-js
 * cannot make: an upload that reports its progress (XMLHttpRequest, src/components/documents).
 * Its `unauthorized` applies the same rule as the client's fetch: a 401 to a signed-in request
 * signs out.
 */
export function edgeFunctionEndpoint(name: string) {
  return {
    url: `${url}/functions/v1/${name}`,
    apiKey: publishableKey,
    unauthorized: () => unauthorizedListeners.forEach((listener) => listener()),
  };
}

/**
 * The app's single Supabase client (DESIGN D1, spec §1): publishable key, automatic token
 * refresh, the session kept in the browser, the public schema.
 */
export const supabase = createClient<Database>(url, publishableKey, {
  auth: {
    autoRefreshToken: true,
    persistSession: true,
    storage: globalThis.localStorage,
    storageKey: authStorageKey,
    detectSessionInUrl: false,
  },
  db: { schema: "public" },
  global: {
    fetch: createSessionAwareFetch({
      fetch: (...args) => fetch(...args),
      publishableKey,
      onUnauthorized: () => unauthorizedListeners.forEach((listener) => listener()),
    }),
  },
});
