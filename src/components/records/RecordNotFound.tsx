import { Button } from "@mantine/core";
import { IconArrowLeft } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { ModulePlaceholder } from "@/components/ModulePlaceholder.tsx";
import { modules, type DetailModuleKey } from "@/modules/registry.ts";

/**
 * A record page whose record is not there (or not the caller's to see: another
 * organization's, another owner's under scope own): the module's detail title, the
 * message, and the way back to its list, from the registry.
 */
export function RecordNotFound({ module }: { module: DetailModuleKey }) {
  const { t } = useTranslation();
  const page = modules.find((candidate) => candidate.key === module);
  const Icon = page?.icon;
  return (
    <ModulePlaceholder
      title={t(`modules.${module}.detailTitle`)}
      description={t(`modules.${module}.detailDescription`)}
      emptyTitle={t("modules.recordNotFound")}
      emptyDescription={t("modules.recordNotFoundDescription")}
      icon={Icon && <Icon size={28} aria-hidden />}
      actions={
        <Button component={Link} to={page?.path ?? "/"} variant="default" leftSection={<IconArrowLeft size={16} aria-hidden />}>
          {t(`modules.${module}.backToList`)}
        </Button>
      }
    />
  );
}
