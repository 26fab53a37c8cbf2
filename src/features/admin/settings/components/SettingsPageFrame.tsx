import { Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import type { OrganizationScope } from "@/session/organization-scope.ts";
import { useOrganizationSettings } from "../api/settings.ts";
import type { OrganizationSettings } from "@/session/organization-settings-schema.ts";
import { LoadError } from "@/components/LoadError.tsx";

interface Props {
  scope: OrganizationScope;
  title: string;
  description: string;
  children: (settings: OrganizationSettings) => ReactNode;
}

/** Heading, loading and load error of a settings page; the form gets the loaded settings. */
export function SettingsPageFrame({ scope, title, description, children }: Props) {
  const { t } = useTranslation();
  const settings = useOrganizationSettings(scope);
  return (
    <Stack gap="lg" maw={960}>
      <Stack gap={4}>
        <Title order={1}>{title}</Title>
        <Text c="dimmed">{description}</Text>
      </Stack>
      {settings.isPending && <LoadingScreen compact />}
      {settings.isError && (
        <LoadError title={t("adminSettings.loadError")} onRetry={() => void settings.refetch()} />
      )}
      {settings.isSuccess && children(settings.data)}
    </Stack>
  );
}
