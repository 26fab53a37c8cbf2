import { Alert, Anchor, Button, Checkbox, Container, Group, List, Paper, Stack, Text, Title } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useNavigate } from "react-router-dom";
import { LanguageSwitcher } from "@/components/LanguageSwitcher.tsx";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { hasAcceptedTerms } from "@/lib/browser-storage.ts";
import { useAcceptTerms } from "../api/accept-terms.ts";
import { useSignOut } from "@/session/use-sign-out.ts";
import { useSession } from "@/session/session-context.ts";
import { returnPath } from "@/session/return-to.ts";
import { signInErrorMessage } from "../utils/sign-in-error.ts";

const sections = ["use", "account", "data", "security", "changes"] as const;

/**
 * /terms (spec section 2): public. A signed-in user who has not accepted the terms on this
 * browser is sent here by the guard and accepts them (or signs out) before going on.
 */
export function TermsPage() {
  const { t } = useTranslation();
  const state = useSession();

  if (state.status === "loading" || state.status === "signingOut") return <LoadingScreen />;
  const email = state.status === "signedIn" ? state.session.user.email : undefined;

  return (
    <Container component="main" size="md" py="xl">
      <Group justify="flex-end" mb="md">
        <LanguageSwitcher />
      </Group>
      <Paper withBorder shadow="sm" radius="md" p="lg">
        <Title order={1} size="h2">
          {t("terms.title")}
        </Title>
        <Text mt="md">{t("terms.intro")}</Text>
        <List type="ordered" spacing="md" mt="md">
          {sections.map((section) => (
            <List.Item key={section}>
              <Text fw={600} component="h2" fz="md" m={0}>
                {t(`terms.sections.${section}.title`)}
              </Text>
              <Text>{t(`terms.sections.${section}.body`)}</Text>
            </List.Item>
          ))}
        </List>
        {email ? (
          <Acceptance email={email} />
        ) : (
          <Group mt="xl">
            <Anchor component={Link} to="/login">
              {t("terms.backToLogin")}
            </Anchor>
          </Group>
        )}
      </Paper>
    </Container>
  );
}

function Acceptance({ email }: { email: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const accept = useAcceptTerms();
  const signOut = useSignOut();
  const [agreed, setAgreed] = useState(false);
  const destination = returnPath(location.state);
  const failure = accept.isError ? signInErrorMessage(accept.error) : undefined;

  if (hasAcceptedTerms(email) && !accept.isPending) {
    return (
      <Group mt="xl">
        <Text c="green.9">{t("terms.alreadyAccepted")}</Text>
        <Button component={Link} to={destination} variant="default">
          {t("terms.continue")}
        </Button>
      </Group>
    );
  }

  return (
    <Stack mt="xl">
      {failure && <Alert color="red">{t(failure.key === "auth.errors.unknown" ? "terms.acceptFailed" : failure.key, failure.values ?? {})}</Alert>}
      <Checkbox
        checked={agreed}
        onChange={(event) => setAgreed(event.currentTarget.checked)}
        label={t("terms.agree")}
      />
      <Group>
        <Button
          disabled={!agreed}
          loading={accept.isPending}
          onClick={() => accept.mutate(email, { onSuccess: () => navigate(destination, { replace: true }) })}
        >
          {t("terms.accept")}
        </Button>
        <Button
          variant="subtle"
          // The page stops showing this part once the session ends, so the promise navigates.
          onClick={() => void signOut.mutateAsync().then(() => navigate("/login", { replace: true }))}
          loading={signOut.isPending}
        >
          {t("terms.decline")}
        </Button>
      </Group>
    </Stack>
  );
}
