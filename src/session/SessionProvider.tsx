import { useEffect, useState, useSyncExternalStore, type ReactNode } from "react";
import { clearSessionData, hasSignInRecord, signedInAt } from "@/lib/browser-storage.ts";
import { authStorageKey, hasStoredSession, loadAuthClient, onUnauthorizedResponse, sessionAuth } from "@/lib/auth-client.ts";
import { clearCachedData } from "./cached-data.ts";
import { SessionActionsContext, SessionContext } from "./session-context.ts";
import { SessionController } from "./session-controller.ts";

/** Provides the session state and sign-out to the app; the rules live in SessionController. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [controller] = useState(
    () =>
      new SessionController({
        auth: sessionAuth,
        onUnauthorized: onUnauthorizedResponse,
        signedInAt,
        hasSessionData: hasSignInRecord,
        hasStoredSession,
        removeStoredSession: () => localStorage.removeItem(authStorageKey),
        clearSessionData: () => {
          clearSessionData();
          // Nothing cached for one user may be shown to the next one.
          clearCachedData();
        },
      }),
  );

  useEffect(() => {
    const stop = controller.start();
    // A session to restore, or one to end (its data is here, Auth's is gone), needs Auth now;
    // a signed-out first screen loads it when the login form is used (LoginForm).
    if (hasStoredSession() || hasSignInRecord()) loadAuthClient().catch(() => undefined);
    return stop;
  }, [controller]);
  const state = useSyncExternalStore(controller.subscribe, controller.getState);

  return (
    <SessionActionsContext value={controller}>
      <SessionContext value={state}>{children}</SessionContext>
    </SessionActionsContext>
  );
}
