import { createClient } from "@supabase/supabase-js";
import type { Database } from "../types/database.types.ts";

// The local stack serves the app and the API on one origin; a hosted project sets the URL.
const url = import.meta.env.VITE_SUPABASE_URL || window.location.origin;

/** The app's single Supabase client (DESIGN D1): publishable key, session kept in the browser. */
export const supabase = createClient<Database>(url, import.meta.env.VITE_SUPABASE_PUBLISHABLE_KEY, {
  auth: { autoRefreshToken: true, persistSession: true, detectSessionInUrl: false },
  db: { schema: "public" },
});
