import { Button } from "@mantine/core";
import { IconArrowLeft, IconAddressBook } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { ModulePlaceholder } from "@/components/ModulePlaceholder.tsx";

/** One record of the contacts module; until the module holds records, none is found. */
export function ContactDetailPage() {
  const { t } = useTranslation();
  return (
    <ModulePlaceholder
      title={t("modules.contacts.detailTitle")}
      description={t("modules.contacts.detailDescription")}
      emptyTitle={t("modules.recordNotFound")}
      emptyDescription={t("modules.recordNotFoundDescription")}
      icon={<IconAddressBook size={28} aria-hidden />}
      actions={
        <Button component={Link} to="/contacts" variant="default" leftSection={<IconArrowLeft size={16} aria-hidden />}>
          {t("modules.contacts.backToList")}
        </Button>
      }
    />
  );
}
