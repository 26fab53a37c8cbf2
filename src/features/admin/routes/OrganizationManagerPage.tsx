import { IconBuildingSkyscraper } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { ModulePlaceholder } from "../../../components/ModulePlaceholder.tsx";

/** Admin page "organizationManager"; it stays empty until it is built. */
export function OrganizationManagerPage() {
  const { t } = useTranslation();
  return (
    <ModulePlaceholder
      title={t("admin.sections.organizationManager.title")}
      description={t("admin.sections.organizationManager.description")}
      emptyTitle={t("admin.sections.organizationManager.emptyTitle")}
      emptyDescription={t("admin.comingSoon")}
      icon={<IconBuildingSkyscraper size={28} aria-hidden />}
    />
  );
}
