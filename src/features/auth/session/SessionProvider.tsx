import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type ReactNode } from "react";
import { supabase } from "../../../lib/supabase.ts";
import { SessionContext, type SessionState } from "./session-context.ts";

// Spec §4: if authentication initialisation hangs, continue as signed out after 8 seconds.
const AUTH_INIT_TIMEOUT_MS = 8_000;

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<SessionState>({ status: "loading" });

  useEffect(() => {
    const timeout = setTimeout(() => {
      setState((current) => (current.status === "loading" ? { status: "signedOut" } : current));
    }, AUTH_INIT_TIMEOUT_MS);

    // The first event (INITIAL_SESSION) arrives once the stored session has been loaded and,
    // if needed, refreshed; later events (sign-in, refresh, sign-out) keep the state current.
    const { data } = supabase.auth.onAuthStateChange((event, session) => {
      clearTimeout(timeout);
      setState(session ? { status: "signedIn", session } : { status: "signedOut" });
      // Nothing cached for one user may be shown to the next one.
      if (event === "SIGNED_OUT") queryClient.clear();
    });

    return () => {
      clearTimeout(timeout);
      data.subscription.unsubscribe();
    };
  }, [queryClient]);

  return <SessionContext value={state}>{children}</SessionContext>;
}
