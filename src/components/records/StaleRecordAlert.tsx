import { Alert, Button, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";

/** A save refused because someone else changed the record first: says so, offers the latest version. */
export function StaleRecordAlert({ onReload }: { onReload(): void }) {
  const { t } = useTranslation();
  return (
    <Alert color="orange" title={t("records.form.staleTitle")} role="alert">
      <Text size="sm">{t("records.form.staleDescription")}</Text>
      <Button size="xs" variant="default" mt="sm" onClick={onReload}>
        {t("records.form.reload")}
      </Button>
    </Alert>
  );
}
