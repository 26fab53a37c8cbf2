import { IconChecklist } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { ModulePlaceholder } from "@/components/ModulePlaceholder.tsx";

/** The tasks module's page; it stays empty until the module is built. */
export function TasksPage() {
  const { t } = useTranslation();
  return (
    <ModulePlaceholder
      title={t("modules.tasks.title")}
      description={t("modules.tasks.description")}
      emptyTitle={t("modules.tasks.emptyTitle")}
      emptyDescription={t("modules.comingSoon")}
      icon={<IconChecklist size={28} aria-hidden />}
    />
  );
}
