import { Button, FileButton, Group, Image, Paper, Stack, Text, Title } from "@mantine/core";
import { IconPhotoUp, IconTrash } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { notifySuccess } from "@/components/notify.ts";
import { useOrganizationLogo } from "@/session/organization-logo.ts";
import { logoContentTypes, type LogoContentType } from "@/lib/logo-types.ts";
import type { OrganizationScope } from "@/session/organization-scope.ts";
import type { OrganizationSettings } from "@/session/organization-settings-schema.ts";
import { useChangeLogo, type LogoChange } from "../api/settings.ts";
import { base64Of, logoFileProblem } from "../utils/logo-file.ts";
import { settingsError } from "../utils/settings-errors.ts";
import { notifySettingsFailure } from "./notify.ts";

/** The organization's logo: a preview, upload (checked here first) and removal; saved at once. */
export function OrganizationLogoCard({ scope, settings }: { scope: OrganizationScope; settings: OrganizationSettings }) {
  const { t } = useTranslation();
  const logo = useOrganizationLogo();
  const change = useChangeLogo(scope);
  const [problem, setProblem] = useState<string | null>(null);
  const hasLogo = settings.logo_updated_at !== null;

  const send = (logoChange: LogoChange) => {
    setProblem(null);
    change.mutate(logoChange, {
      onSuccess: () =>
        notifySuccess(t(logoChange.action === "set" ? "adminSettings.logo.saved" : "adminSettings.logo.removed")),
      onError: (error) => {
        const failure = settingsError(error);
        if (failure.key.includes("logo")) setProblem(t(failure.key));
        else notifySettingsFailure(t, failure);
      },
    });
  };

  const onFile = async (file: File | null) => {
    if (!file) return;
    const refused = logoFileProblem(file);
    if (refused) {
      setProblem(t(`adminSettings.errors.${refused}`));
      return;
    }
    send({ action: "set", contentType: file.type as LogoContentType, base64: await base64Of(file) });
  };

  return (
    <Paper withBorder p="lg" radius="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t("adminSettings.logo.title")}
        </Title>
        <Text size="sm" c="dimmed" id="logo-description">
          {t("adminSettings.logo.description")}
        </Text>
        {hasLogo && logo.data ? (
          <Image src={logo.data} alt={t("adminSettings.logo.alt", { name: settings.name })} h={64} w="auto" fit="contain" />
        ) : (
          <Text size="sm">{t("adminSettings.logo.none")}</Text>
        )}
        {problem && (
          <Text size="sm" c="red.9" role="alert">
            {problem}
          </Text>
        )}
        <Group>
          <FileButton onChange={(file) => void onFile(file)} accept={logoContentTypes.join(",")}>
            {(props) => (
              <Button
                {...props}
                variant="default"
                leftSection={<IconPhotoUp size={16} aria-hidden />}
                loading={change.isPending && change.variables.action === "set"}
                aria-describedby="logo-description"
              >
                {t(hasLogo ? "adminSettings.logo.replace" : "adminSettings.logo.upload")}
              </Button>
            )}
          </FileButton>
          {hasLogo && (
            <Button
              variant="outline"
              color="red.9"
              leftSection={<IconTrash size={16} aria-hidden />}
              loading={change.isPending && change.variables.action === "remove"}
              onClick={() => send({ action: "remove" })}
            >
              {t("adminSettings.logo.remove")}
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
