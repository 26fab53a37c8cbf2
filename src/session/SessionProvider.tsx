import { useEffect, useState, useSyncExternalStore, type ReactNode } from "react";
import { clearSessionData, hasSignInRecord, signedInAt } from "@/lib/browser-storage.ts";
import { authClient, authStorageKey, onUnauthorizedResponse } from "@/lib/auth-client.ts";
import { clearCachedData } from "./cached-data.ts";
import { SessionActionsContext, SessionContext } from "./session-context.ts";
import { SessionController } from "./session-controller.ts";

/** Provides the session state and sign-out to the app; the rules live in SessionController. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [controller] = useState(
    () =>
      new SessionController({
        auth: authClient,
        onUnauthorized: onUnauthorizedResponse,
        signedInAt,
        hasSessionData: hasSignInRecord,
        hasStoredSession: () => localStorage.getItem(authStorageKey) !== null,
        removeStoredSession: () => localStorage.removeItem(authStorageKey),
        clearSessionData: () => {
          clearSessionData();
          // Nothing cached for one user may be shown to the next one.
          clearCachedData();
        },
      }),
  );

  useEffect(() => controller.start(), [controller]);
  const state = useSyncExternalStore(controller.subscribe, controller.getState);

  return (
    <SessionActionsContext value={controller}>
      <SessionContext value={state}>{children}</SessionContext>
    </SessionActionsContext>
  );
}
