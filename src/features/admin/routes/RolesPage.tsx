import { IconUserShield } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { ModulePlaceholder } from "../../../components/ModulePlaceholder.tsx";

/** Admin page "roles"; it stays empty until it is built. */
export function RolesPage() {
  const { t } = useTranslation();
  return (
    <ModulePlaceholder
      title={t("admin.sections.roles.title")}
      description={t("admin.sections.roles.description")}
      emptyTitle={t("admin.sections.roles.emptyTitle")}
      emptyDescription={t("admin.comingSoon")}
      icon={<IconUserShield size={28} aria-hidden />}
    />
  );
}
