import { Alert, Stack, Tabs, Text, Title } from "@mantine/core";
import { IconFileImport, IconHistory, IconInfoCircle } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LoadError } from "@/components/LoadError.tsx";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { useMyPermissions } from "@/modules/permissions.ts";
import { ImportHistory } from "../components/ImportHistory.tsx";
import { ImportWizard } from "../components/ImportWizard.tsx";
import { importableKinds } from "../kinds.ts";

type Tab = "import" | "history";

/**
 * The import/export page: the import wizard for the kinds the role may import, and the
 * import history with undo. Exports are made from each module's list (its export button).
 */
export function ImportExportPage() {
  const { t } = useTranslation();
  const permissions = useMyPermissions();
  const [tab, setTab] = useState<Tab>("import");

  const header = (
    <Stack gap={4}>
      <Title order={1}>{t("modules.importExport.title")}</Title>
      <Text c="dimmed">{t("modules.importExport.description")}</Text>
    </Stack>
  );
  if (permissions.isPending) return <LoadingScreen />;
  if (permissions.isError) return <LoadError title={t("permissions.loadError")} onRetry={() => void permissions.refetch()} />;

  const kinds = importableKinds(permissions.data.permissions);
  const exportHint = (
    <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} aria-hidden />}>
      {t("modules.importExport.exportHint")}
    </Alert>
  );

  if (kinds.length === 0) {
    return (
      <Stack gap="lg">
        {header}
        <Alert color="yellow">{t("modules.importExport.noImport")}</Alert>
        {exportHint}
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      {header}
      <Tabs value={tab} onChange={(value) => setTab(value === "history" ? "history" : "import")} keepMounted>
        <Tabs.List aria-label={t("modules.importExport.tabs.label")}>
          <Tabs.Tab value="import" leftSection={<IconFileImport size={16} aria-hidden />}>
            {t("modules.importExport.tabs.import")}
          </Tabs.Tab>
          <Tabs.Tab value="history" leftSection={<IconHistory size={16} aria-hidden />}>
            {t("modules.importExport.tabs.history")}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="import" pt="lg">
          <ImportWizard kinds={kinds} onShowHistory={() => setTab("history")} />
        </Tabs.Panel>
        <Tabs.Panel value="history" pt="lg">
          {tab === "history" && <ImportHistory kinds={kinds} permissions={permissions.data.permissions} />}
        </Tabs.Panel>
      </Tabs>
      {exportHint}
    </Stack>
  );
}
