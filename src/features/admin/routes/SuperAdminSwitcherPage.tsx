import { IconSwitchHorizontal } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { ModulePlaceholder } from "../../../components/ModulePlaceholder.tsx";

/** Admin page "superAdminSwitcher"; it stays empty until it is built. */
export function SuperAdminSwitcherPage() {
  const { t } = useTranslation();
  return (
    <ModulePlaceholder
      title={t("admin.sections.superAdminSwitcher.title")}
      description={t("admin.sections.superAdminSwitcher.description")}
      emptyTitle={t("admin.sections.superAdminSwitcher.emptyTitle")}
      emptyDescription={t("admin.comingSoon")}
      icon={<IconSwitchHorizontal size={28} aria-hidden />}
    />
  );
}
