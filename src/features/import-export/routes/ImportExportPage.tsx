import { IconTransfer } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { ModulePlaceholder } from "@/components/ModulePlaceholder.tsx";

/** The import-export module's page; it stays empty until the module is built. */
export function ImportExportPage() {
  const { t } = useTranslation();
  return (
    <ModulePlaceholder
      title={t("modules.importExport.title")}
      description={t("modules.importExport.description")}
      emptyTitle={t("modules.importExport.emptyTitle")}
      emptyDescription={t("modules.comingSoon")}
      icon={<IconTransfer size={28} aria-hidden />}
    />
  );
}
