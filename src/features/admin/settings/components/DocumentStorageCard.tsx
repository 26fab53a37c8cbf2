import { Paper, Progress, Stack, Text, Title } from "@mantine/core";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { useDocumentUsage } from "@/components/documents/document-api.ts";
import { formatFileSize } from "@/components/documents/document-files.ts";
import { LoadError } from "@/components/LoadError.tsx";

/** The organization's document storage as the database counts it (get_document_usage): used of the quota, read only. */
export function DocumentStorageCard() {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const usage = useDocumentUsage();
  const language = i18n.resolvedLanguage;
  const share = usage.data && usage.data.quota_bytes > 0 ? Math.min(100, (usage.data.used_bytes / usage.data.quota_bytes) * 100) : 0;
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby={titleId}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={titleId}>
          {t("adminSettings.general.documentStorage.title")}
        </Title>
        <Text size="sm" c="dimmed">
          {t("adminSettings.general.documentStorage.description")}
        </Text>
        {usage.isError ? (
          <LoadError title={t("adminSettings.general.documentStorage.loadError")} onRetry={() => void usage.refetch()} />
        ) : usage.data ? (
          <>
            <Progress value={share} color={share >= 90 ? "red" : "blue"} aria-label={t("adminSettings.general.documentStorage.title")} />
            <Text size="sm">
              {t("adminSettings.general.documentStorage.used", {
                used: formatFileSize(usage.data.used_bytes, language),
                quota: formatFileSize(usage.data.quota_bytes, language),
                percent: new Intl.NumberFormat(language === "en" ? "en-GB" : "tr-TR", { maximumFractionDigits: 1 }).format(share),
              })}
            </Text>
          </>
        ) : null}
      </Stack>
    </Paper>
  );
}
