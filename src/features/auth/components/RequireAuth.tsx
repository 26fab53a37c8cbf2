import type { Session } from "@supabase/supabase-js";
import { Alert, Button, Container, Group } from "@mantine/core";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, Outlet, useLocation } from "react-router-dom";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { hasAcceptedTerms, writeCurrentOrganization } from "@/lib/browser-storage.ts";
import { RpcError } from "@/lib/rpc.ts";
import { useCurrentUserContext } from "@/session/current-user-context.ts";
import { useSession, useSessionActions } from "@/session/session-context.ts";
import { returnState } from "@/session/return-to.ts";

/**
 * Layout route for everything behind the sign-in: a signed-in session, bound to an
 * organization (otherwise /select-organization), whose user has accepted the terms on this
 * browser (otherwise /terms). Other pages come back here afterwards.
 */
export function RequireAuth() {
  const state = useSession();
  const location = useLocation();
  if (state.status === "loading" || state.status === "signingOut") return <LoadingScreen />;
  if (state.status === "signedOut") {
    // After someone chose to sign out, the next person starts at home, not on their page.
    return <Navigate to="/login" replace state={state.reason === "signedOut" ? undefined : returnState(location)} />;
  }
  return <SignedInGate session={state.session} />;
}

function SignedInGate({ session }: { session: Session }) {
  const { t } = useTranslation();
  const location = useLocation();
  const { signOut } = useSessionActions();
  const context = useCurrentUserContext(session.user.id);
  // The account can no longer be used (disabled, locked by an admin): the session ends.
  const refused =
    context.error instanceof RpcError && ["authentication_required", "user_not_found"].includes(context.error.code ?? "");
  const organization = context.data?.organization;

  useEffect(() => {
    if (refused) void signOut("unauthorized");
  }, [refused, signOut]);

  useEffect(() => {
    if (organization) writeCurrentOrganization(organization);
  }, [organization]);

  if (context.isPending || refused) return <LoadingScreen />;
  // Only a first load that failed stops here. A failed refetch keeps the data it had and the
  // app goes on with it: with the database gone for a moment, a background refetch replaced
  // the whole app with this error; now the screen says what it could not load (its
  // LoadError and retry). Found by `npm run faults`; guarded by src/app/signed-in-gates.test.tsx.
  if (!context.data) {
    return (
      <Container size="sm" py="xl">
        <Alert color="red" title={t("auth.guard.loadError")}>
          <Group mt="sm">
            <Button variant="default" size="xs" onClick={() => void context.refetch()}>
              {t("common.retry")}
            </Button>
            <Button variant="subtle" size="xs" onClick={() => void signOut()}>
              {t("auth.signOut.button")}
            </Button>
          </Group>
        </Alert>
      </Container>
    );
  }
  if (!context.data.organization) return <Navigate to="/select-organization" replace state={returnState(location)} />;
  if (!hasAcceptedTerms(context.data.user.email)) return <Navigate to="/terms" replace state={returnState(location)} />;
  return <Outlet />;
}
