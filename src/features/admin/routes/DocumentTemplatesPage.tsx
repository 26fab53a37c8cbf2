import { IconTemplate } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { ModulePlaceholder } from "../../../components/ModulePlaceholder.tsx";

/** Admin page "documentTemplates"; it stays empty until it is built. */
export function DocumentTemplatesPage() {
  const { t } = useTranslation();
  return (
    <ModulePlaceholder
      title={t("admin.sections.documentTemplates.title")}
      description={t("admin.sections.documentTemplates.description")}
      emptyTitle={t("admin.sections.documentTemplates.emptyTitle")}
      emptyDescription={t("admin.comingSoon")}
      icon={<IconTemplate size={28} aria-hidden />}
    />
  );
}
