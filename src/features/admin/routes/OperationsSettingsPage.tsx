import { IconAdjustments } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { ModulePlaceholder } from "../../../components/ModulePlaceholder.tsx";

/** Admin page "operationsSettings"; it stays empty until it is built. */
export function OperationsSettingsPage() {
  const { t } = useTranslation();
  return (
    <ModulePlaceholder
      title={t("admin.sections.operationsSettings.title")}
      description={t("admin.sections.operationsSettings.description")}
      emptyTitle={t("admin.sections.operationsSettings.emptyTitle")}
      emptyDescription={t("admin.comingSoon")}
      icon={<IconAdjustments size={28} aria-hidden />}
    />
  );
}
