import { Button } from "@mantine/core";
import { IconArrowLeft, IconTargetArrow } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { ModulePlaceholder } from "@/components/ModulePlaceholder.tsx";

/** One record of the deals module; until the module holds records, none is found. */
export function DealDetailPage() {
  const { t } = useTranslation();
  return (
    <ModulePlaceholder
      title={t("modules.deals.detailTitle")}
      description={t("modules.deals.detailDescription")}
      emptyTitle={t("modules.recordNotFound")}
      emptyDescription={t("modules.recordNotFoundDescription")}
      icon={<IconTargetArrow size={28} aria-hidden />}
      actions={
        <Button component={Link} to="/deals" variant="default" leftSection={<IconArrowLeft size={16} aria-hidden />}>
          {t("modules.deals.backToList")}
        </Button>
      }
    />
  );
}
