import { Button, Container, Group, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";

interface Props {
  /** Inside the main layout, whose `<main>` already holds it: then it is a section, not a landmark. */
  embedded?: boolean;
}

/** The fatal-error screen of spec §2. */
export function ErrorScreen({ embedded = false }: Props) {
  const { t } = useTranslation();
  return (
    <Container component={embedded ? "section" : "main"} size="sm" py="xl">
      <Stack align="center" ta="center">
        <Title order={1}>{t("errorScreen.title")}</Title>
        <Text>{t("errorScreen.description")}</Text>
        <Group justify="center">
          <Button onClick={() => window.location.reload()}>{t("errorScreen.reload")}</Button>
          {/* A full page load, not a router navigation: it also drops whatever state failed. */}
          <Button variant="default" onClick={() => window.location.assign("/")}>
            {t("errorScreen.goHome")}
          </Button>
        </Group>
      </Stack>
    </Container>
  );
}
