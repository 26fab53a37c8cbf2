import { IconSettings } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { ModulePlaceholder } from "../../../components/ModulePlaceholder.tsx";

/** Admin page "generalSettings"; it stays empty until it is built. */
export function GeneralSettingsPage() {
  const { t } = useTranslation();
  return (
    <ModulePlaceholder
      title={t("admin.sections.generalSettings.title")}
      description={t("admin.sections.generalSettings.description")}
      emptyTitle={t("admin.sections.generalSettings.emptyTitle")}
      emptyDescription={t("admin.comingSoon")}
      icon={<IconSettings size={28} aria-hidden />}
    />
  );
}
