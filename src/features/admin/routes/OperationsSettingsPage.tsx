import { useTranslation } from "react-i18next";
import { OperationsSettingsForm } from "../settings/components/OperationsSettingsForm.tsx";
import { SettingsPageFrame } from "../settings/components/SettingsPageFrame.tsx";
import { useOrganizationScope } from "@/session/organization-scope.ts";

/** Admin page "operationsSettings": the deal pipeline, task types and quote numbering. */
export function OperationsSettingsPage() {
  const { t } = useTranslation();
  const scope = useOrganizationScope();
  return (
    <SettingsPageFrame scope={scope} title={t("adminSettings.operations.title")} description={t("adminSettings.operations.description")}>
      {(settings) => <OperationsSettingsForm scope={scope} settings={settings} />}
    </SettingsPageFrame>
  );
}
