import { IconUsers } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { ModulePlaceholder } from "../../../components/ModulePlaceholder.tsx";

/** Admin page "users"; it stays empty until it is built. */
export function UsersPage() {
  const { t } = useTranslation();
  return (
    <ModulePlaceholder
      title={t("admin.sections.users.title")}
      description={t("admin.sections.users.description")}
      emptyTitle={t("admin.sections.users.emptyTitle")}
      emptyDescription={t("admin.comingSoon")}
      icon={<IconUsers size={28} aria-hidden />}
    />
  );
}
