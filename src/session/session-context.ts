import type { Session } from "@supabase/supabase-js";
import { createContext, use } from "react";

/**
 * Why the session ended: the person signed out, it passed its 24 hours, the server answered
 * 401, or Auth ended it (an invalid refresh token, or a sign-out in another tab).
 */
export type SignOutReason = "signedOut" | "expired" | "unauthorized" | "ended";

export type SessionState =
  | { status: "loading" }
  | { status: "signedOut"; reason?: SignOutReason }
  /** The session is cleared; the app goes to /login a moment later (spec §4: ~100 ms). */
  | { status: "signingOut"; reason: SignOutReason }
  | { status: "signedIn"; session: Session };

export interface SessionActions {
  /** Clears the session and everything tied to it; resolves once the app has gone to /login. */
  signOut(reason?: SignOutReason): Promise<void>;
}

export const SessionContext = createContext<SessionState | null>(null);
export const SessionActionsContext = createContext<SessionActions | null>(null);

export function useSession(): SessionState {
  const state = use(SessionContext);
  if (!state) throw new Error("useSession must be used inside <SessionProvider>");
  return state;
}

export function useSessionActions(): SessionActions {
  const actions = use(SessionActionsContext);
  if (!actions) throw new Error("useSessionActions must be used inside <SessionProvider>");
  return actions;
}

/** The current session, for screens that are only rendered behind <RequireAuth>. */
export function useSignedInSession(): Session {
  const state = useSession();
  if (state.status !== "signedIn") throw new Error("useSignedInSession must be used behind <RequireAuth>");
  return state.session;
}
