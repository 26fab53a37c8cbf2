import { IconDatabase } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { ModulePlaceholder } from "../../../components/ModulePlaceholder.tsx";

/** Admin page "database"; it stays empty until it is built. */
export function DatabasePage() {
  const { t } = useTranslation();
  return (
    <ModulePlaceholder
      title={t("admin.sections.database.title")}
      description={t("admin.sections.database.description")}
      emptyTitle={t("admin.sections.database.emptyTitle")}
      emptyDescription={t("admin.comingSoon")}
      icon={<IconDatabase size={28} aria-hidden />}
    />
  );
}
