import type { AppAuthClient as AuthClient } from "./auth-client-instance.ts";
import type { SessionAuthClient } from "@/session/session-controller.ts";
import { storageKeys } from "./browser-storage.ts";
import { createSessionAwareFetch } from "./supabase-fetch.ts";

/**
 * The first screen's share of Supabase: the login's RPCs by a plain fetch, and Auth
 * (@supabase/auth-js, the client supabase-js itself builds on) loaded when first needed
 * (loadAuthClient): at start-up when this browser holds a session, else when someone starts
 * using the login form. The full client (src/lib/supabase.ts: the Data API, Storage,
 * Functions, Realtime) loads with the first page after sign-in and takes its access token
 * from this one: there is one session, one refresh, one storage key.
 */

// The local stack serves the app and the API on one origin; a hosted project sets the URL.
export const supabaseUrl = import.meta.env.VITE_SUPABASE_URL || window.location.origin;
export const publishableKey = import.meta.env.VITE_SUPABASE_PUBLISHABLE_KEY;

/** Where Auth keeps the session in localStorage (fixed, so sign-out can always clear it). */
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

/** Tells the listeners that a signed-in request was answered 401. */
export function reportUnauthorized(): void {
  unauthorizedListeners.forEach((listener) => listener());
}

/** The fetch of every Supabase request of the app: a 401 to a signed-in request signs out. */
export const sessionAwareFetch = createSessionAwareFetch({
  fetch: (...args) => fetch(...args),
  publishableKey,
  onUnauthorized: reportUnauthorized,
});

let loading: Promise<AuthClient> | null = null;
let loaded: AuthClient | null = null;
const waiting = new Set<(client: AuthClient) => void>();

/**
 * The app's single Auth client (DESIGN D1, spec §1; auth-client-instance.ts), loaded once, on
 * first need; a load that fails (the network) is tried again at the next need.
 */
export function loadAuthClient(): Promise<AuthClient> {
  loading ??= import("./auth-client-instance.ts").then(
    ({ createAuthClient }) => {
      loaded = createAuthClient({ supabaseUrl, publishableKey, storageKey: authStorageKey, fetch: sessionAwareFetch });
      // Auth hears the other tabs itself from now on.
      window.removeEventListener("storage", loadOnSignInElsewhere);
      waiting.forEach((callback) => callback(loaded!));
      waiting.clear();
      return loaded;
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** Runs `callback` with the Auth client once it is loaded (at once if it is), without loading it. */
function whenAuthClientLoaded(callback: (client: AuthClient) => void): void {
  if (loaded) callback(loaded);
  else waiting.add(callback);
}

/** Whether this browser holds an Auth session (the stored one Auth restores at start-up). */
export const hasStoredSession = () => localStorage.getItem(authStorageKey) !== null;

/**
 * Another tab stored a session (a sign-in there): Auth loads here too, and tells this tab's
 * listeners as it would at start-up. A storage event reaches only the other tabs.
 */
function loadOnSignInElsewhere(event: StorageEvent): void {
  if (event.key === authStorageKey && event.newValue !== null) void loadAuthClient().catch(() => undefined);
}

/**
 * The Auth client as the session controller uses it: its listener attaches when the client
 * loads (so a signed-out first screen does not load it just to listen; a sign-in in another
 * tab loads it, so this tab follows), its actions load it.
 */
export const sessionAuth: SessionAuthClient = {
  onAuthStateChange(callback) {
    let subscription: { unsubscribe(): void } | null = null;
    let stopped = false;
    // One listener however many subscribe (the same function); loadAuthClient drops it.
    if (!loaded) window.addEventListener("storage", loadOnSignInElsewhere);
    whenAuthClientLoaded((client) => {
      if (!stopped) subscription = client.onAuthStateChange(callback).data.subscription;
    });
    return {
      data: {
        subscription: {
          unsubscribe() {
            stopped = true;
            subscription?.unsubscribe();
          },
        },
      },
    };
  },
  refreshSession: async () => (await loadAuthClient()).refreshSession(),
  signOut: async (options) => (await loadAuthClient()).signOut(options),
};

/** The signed-in user's access token, or null when signed out (no stored session: Auth is not loaded for it). */
export async function accessToken(): Promise<string | null> {
  if (!loaded && !hasStoredSession()) return null;
  const { data } = await (await loadAuthClient()).getSession();
  return data.session?.access_token ?? null;
}

/** A failed call of `postRpc`: no answer (status 0) or an HTTP error, with the server's message. */
export class RpcRequestError extends Error {
  override name = "RpcRequestError";
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/**
 * Calls a public RPC of the Data API as supabase-js would (POST /rest/v1/rpc/<name>, the
 * publishable key, the session's access token if there is one) and answers its JSON. Used by
 * the login, so the first screen does without the full client.
 */
export async function postRpc(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<unknown> {
  const token = (await accessToken()) ?? publishableKey;
  let response: Response;
  try {
    response = await sessionAwareFetch(`${supabaseUrl}/rest/v1/rpc/${name}`, {
      method: "POST",
      headers: { apikey: publishableKey, Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify(args),
      signal,
    });
  } catch (error) {
    throw new RpcRequestError(error instanceof Error ? `${error.name}: ${error.message}` : String(error), 0);
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  if (!response.ok) {
    const message =
      typeof body === "object" && body !== null && "message" in body ? String(body.message) : text || response.statusText;
    throw new RpcRequestError(message, response.status);
  }
  return body;
}
