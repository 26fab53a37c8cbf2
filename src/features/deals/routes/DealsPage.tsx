import { IconTargetArrow } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { ModulePlaceholder } from "@/components/ModulePlaceholder.tsx";

/** The deals module's page; it stays empty until the module is built. */
export function DealsPage() {
  const { t } = useTranslation();
  return (
    <ModulePlaceholder
      title={t("modules.deals.title")}
      description={t("modules.deals.description")}
      emptyTitle={t("modules.deals.emptyTitle")}
      emptyDescription={t("modules.comingSoon")}
      icon={<IconTargetArrow size={28} aria-hidden />}
    />
  );
}
