import { Alert, Box, Button, Container, Group, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { LanguageSwitcher } from "../../../components/LanguageSwitcher.tsx";
import { LoadingScreen } from "../../../components/LoadingScreen.tsx";
import { useCurrentUserContext } from "../../auth/api/get-current-user-context.ts";
import { SignOutButton } from "../../auth/components/SignOutButton.tsx";
import { useSignedInSession } from "../../auth/session/session-context.ts";
import { displayName } from "../../auth/utils/display-name.ts";

export function HomePage() {
  const { t } = useTranslation();
  const session = useSignedInSession();
  const context = useCurrentUserContext(session.user.id);

  return (
    <Container size="md" py="lg">
      <Group component="header" justify="space-between" mb="xl">
        <LanguageSwitcher />
        <SignOutButton />
      </Group>
      <Box component="main">
        {context.isPending && <LoadingScreen />}
        {context.isError && (
          <Alert color="red" title={t("home.loadError")}>
            <Button variant="default" size="xs" mt="sm" onClick={() => void context.refetch()}>
              {t("common.retry")}
            </Button>
          </Alert>
        )}
        {context.isSuccess && (
          <Stack gap="xs">
            <Title order={1}>{t("home.welcome", { name: displayName(context.data.user) })}</Title>
            {context.data.organization ? (
              <Box>
                <Text size="sm" c="gray.7">
                  {t("home.organizationLabel")}
                </Text>
                <Text size="lg" fw={600}>
                  {context.data.organization.name}
                </Text>
              </Box>
            ) : (
              <Text size="lg">{t("home.noOrganization")}</Text>
            )}
          </Stack>
        )}
      </Box>
    </Container>
  );
}
