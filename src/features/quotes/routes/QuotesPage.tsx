import { IconFileInvoice } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { ModulePlaceholder } from "@/components/ModulePlaceholder.tsx";

/** The quotes module's page; it stays empty until the module is built. */
export function QuotesPage() {
  const { t } = useTranslation();
  return (
    <ModulePlaceholder
      title={t("modules.quotes.title")}
      description={t("modules.quotes.description")}
      emptyTitle={t("modules.quotes.emptyTitle")}
      emptyDescription={t("modules.comingSoon")}
      icon={<IconFileInvoice size={28} aria-hidden />}
    />
  );
}
