import type { Session } from "@supabase/supabase-js";
import { createContext, use } from "react";

export type SessionState =
  | { status: "loading" }
  | { status: "signedOut" }
  | { status: "signedIn"; session: Session };

export const SessionContext = createContext<SessionState | null>(null);

export function useSession(): SessionState {
  const state = use(SessionContext);
  if (!state) throw new Error("useSession must be used inside <SessionProvider>");
  return state;
}

/** The current session, for screens that are only rendered behind <RequireAuth>. */
export function useSignedInSession(): Session {
  const state = useSession();
  if (state.status !== "signedIn") throw new Error("useSignedInSession must be used behind <RequireAuth>");
  return state.session;
}
