import { Button, EmptyState } from "@mantine/core";
import { IconLock } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";

/**
 * The one "no access" page: a title, one sentence saying why, and the way back to the home
 * page, inside the layout at the address that was asked for (never a silent redirect). The
 * sales modules (ModuleDenied) and the admin pages (RequireAdmin) show it; the database
 * refuses every call of such a page again anyway.
 */
export function AccessDenied({ title, description }: { title: string; description: string }) {
  const { t } = useTranslation();
  return (
    <EmptyState icon={<IconLock size={28} aria-hidden />} withIndicatorBackground py="xl">
      <EmptyState.Title order={1}>{title}</EmptyState.Title>
      <EmptyState.Description>{description}</EmptyState.Description>
      <EmptyState.Actions>
        <Button component={Link} to="/" variant="default">
          {t("errorScreen.goHome")}
        </Button>
      </EmptyState.Actions>
    </EmptyState>
  );
}
