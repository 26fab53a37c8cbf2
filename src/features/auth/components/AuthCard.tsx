import { Container, Group, Paper, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { LanguageSwitcher } from "@/components/LanguageSwitcher.tsx";

interface AuthCardProps {
  title: string;
  subtitle: string;
  children: ReactNode;
}

/** The frame of the pages before sign-in (login, forgot and reset password): the language choice, the app's name and a card. */
export function AuthCard({ title, subtitle, children }: AuthCardProps) {
  const { t } = useTranslation();
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
          {title}
        </Title>
        <Text size="sm" mt={4} mb="md">
          {subtitle}
        </Text>
        {children}
      </Paper>
    </Container>
  );
}
