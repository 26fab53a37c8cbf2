import { IconContract } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { ModulePlaceholder } from "@/components/ModulePlaceholder.tsx";

/** The contracts module's page; it stays empty until the module is built. */
export function ContractsPage() {
  const { t } = useTranslation();
  return (
    <ModulePlaceholder
      title={t("modules.contracts.title")}
      description={t("modules.contracts.description")}
      emptyTitle={t("modules.contracts.emptyTitle")}
      emptyDescription={t("modules.comingSoon")}
      icon={<IconContract size={28} aria-hidden />}
    />
  );
}
