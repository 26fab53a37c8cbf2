import { IconBuilding } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { ModulePlaceholder } from "../../../components/ModulePlaceholder.tsx";

/** The customers module's page; it stays empty until the module is built. */
export function CustomersPage() {
  const { t } = useTranslation();
  return (
    <ModulePlaceholder
      title={t("modules.customers.title")}
      description={t("modules.customers.description")}
      emptyTitle={t("modules.customers.emptyTitle")}
      emptyDescription={t("modules.comingSoon")}
      icon={<IconBuilding size={28} aria-hidden />}
    />
  );
}
