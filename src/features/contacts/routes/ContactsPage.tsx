import { IconAddressBook } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { ModulePlaceholder } from "@/components/ModulePlaceholder.tsx";

/** The contacts module's page; it stays empty until the module is built. */
export function ContactsPage() {
  const { t } = useTranslation();
  return (
    <ModulePlaceholder
      title={t("modules.contacts.title")}
      description={t("modules.contacts.description")}
      emptyTitle={t("modules.contacts.emptyTitle")}
      emptyDescription={t("modules.comingSoon")}
      icon={<IconAddressBook size={28} aria-hidden />}
    />
  );
}
