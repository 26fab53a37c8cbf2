import { Container, Group, Paper, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Navigate } from "react-router-dom";
import { LanguageSwitcher } from "../../../components/LanguageSwitcher.tsx";
import { LoadingScreen } from "../../../components/LoadingScreen.tsx";
import { LoginForm } from "../components/LoginForm.tsx";
import { useSession } from "../session/session-context.ts";

export function LoginPage() {
  const { t } = useTranslation();
  const { status } = useSession();

  if (status === "loading") return <LoadingScreen />;
  // Also the redirect after a successful sign-in: the session provider flips to signedIn.
  if (status === "signedIn") return <Navigate to="/" replace />;

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
        <LoginForm />
      </Paper>
    </Container>
  );
}
