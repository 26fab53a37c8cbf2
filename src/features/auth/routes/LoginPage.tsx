import { Alert, Anchor, Group } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, Navigate, useLocation, useNavigate } from "react-router-dom";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { AuthCard } from "../components/AuthCard.tsx";
import { LoginForm } from "../components/LoginForm.tsx";
import { useSession } from "@/session/session-context.ts";
import { returnPath } from "@/session/return-to.ts";

/** Whether the page was opened right after a password reset (ResetPasswordPage says so in the state). */
function afterPasswordReset(state: unknown): boolean {
  return typeof state === "object" && state !== null && (state as { passwordReset?: unknown }).passwordReset === true;
}

export function LoginPage() {
  const { t } = useTranslation();
  const state = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  // Auth reports the session before the flow has bound its organization, and a flow that fails
  // afterwards ends that session again: once someone has tried here, only the flow's own
  // success moves on.
  const [attempted, setAttempted] = useState(false);
  const destination = returnPath(location.state);

  if (state.status === "loading") return <LoadingScreen />;
  // Someone already signed in who opens /login goes on; the guards then route them further.
  if (state.status === "signedIn" && !attempted) return <Navigate to={destination} replace />;

  return (
    <AuthCard title={t("auth.login.title")} subtitle={t("auth.login.subtitle")}>
      {afterPasswordReset(location.state) && !attempted && (
        <Alert color="green" mb="md">
          {t("auth.login.passwordReset")}
        </Alert>
      )}
      <LoginForm
        endedReason={state.status === "signedOut" ? state.reason : undefined}
        onAttempt={() => setAttempted(true)}
        onSignedIn={({ organization }) =>
          navigate(organization ? destination : "/select-organization", {
            replace: true,
            state: organization ? undefined : { from: destination },
          })
        }
      />
      <Group justify="center" mt="md">
        <Anchor component={Link} to="/forgot-password" size="sm">
          {t("auth.login.forgotPassword")}
        </Anchor>
      </Group>
    </AuthCard>
  );
}
