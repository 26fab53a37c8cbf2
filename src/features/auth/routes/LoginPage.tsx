import { Container, Group, Paper, Text, Title } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useLocation, useNavigate } from "react-router-dom";
import { LanguageSwitcher } from "@/components/LanguageSwitcher.tsx";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { LoginForm } from "../components/LoginForm.tsx";
import { useSession } from "@/session/session-context.ts";
import { returnPath } from "@/session/return-to.ts";

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
    <Container component="main" size={440} py="xl">
      <Group justify="flex-end" mb="md">
        <LanguageSwitcher />
      </Group>
      <Title order={1} ta="center">
        {t("app.title")}
      </Title>
      <Paper withBorder shadow="sm" radius="md" p="lg" mt="lg">
        <Title order={2} size="h3">
          {t("auth.login.title")}
        </Title>
        <Text size="sm" mt={4} mb="md">
          {t("auth.login.subtitle")}
        </Text>
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
      </Paper>
    </Container>
  );
}
