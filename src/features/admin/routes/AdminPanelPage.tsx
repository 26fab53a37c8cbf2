import { Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { LinkCard, LinkCardGrid } from "@/components/LinkCard.tsx";
import { useAccess } from "../api/use-access.ts";
import { visibleAdminSections } from "../sections.ts";

/** The admin panel: the way into each admin page the user may open. */
export function AdminPanelPage() {
  const { t } = useTranslation();
  const access = useAccess();
  // Behind RequireAdmin the access is known already.
  const sections = visibleAdminSections(access.status === "ready" && access.superAdmin);

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>{t("admin.panel.title")}</Title>
        <Text c="dimmed">{t("admin.panel.description")}</Text>
      </Stack>
      <LinkCardGrid label={t("admin.panel.sectionsLabel")}>
        {sections.map(({ key, path, icon }) => (
          <LinkCard
            key={key}
            to={path}
            icon={icon}
            title={t(`admin.sections.${key}.title`)}
            description={t(`admin.sections.${key}.description`)}
          />
        ))}
      </LinkCardGrid>
    </Stack>
  );
}
