import { IconFiles } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { ModulePlaceholder } from "@/components/ModulePlaceholder.tsx";

/** The documents module's page; it stays empty until the module is built. */
export function DocumentsPage() {
  const { t } = useTranslation();
  return (
    <ModulePlaceholder
      title={t("modules.documents.title")}
      description={t("modules.documents.description")}
      emptyTitle={t("modules.documents.emptyTitle")}
      emptyDescription={t("modules.comingSoon")}
      icon={<IconFiles size={28} aria-hidden />}
    />
  );
}
