import { Button } from "@mantine/core";
import { IconArrowLeft, IconBuilding } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { ModulePlaceholder } from "@/components/ModulePlaceholder.tsx";

/** One record of the customers module; until the module holds records, none is found. */
export function CustomerDetailPage() {
  const { t } = useTranslation();
  return (
    <ModulePlaceholder
      title={t("modules.customers.detailTitle")}
      description={t("modules.customers.detailDescription")}
      emptyTitle={t("modules.recordNotFound")}
      emptyDescription={t("modules.recordNotFoundDescription")}
      icon={<IconBuilding size={28} aria-hidden />}
      actions={
        <Button component={Link} to="/customers" variant="default" leftSection={<IconArrowLeft size={16} aria-hidden />}>
          {t("modules.customers.backToList")}
        </Button>
      }
    />
  );
}
