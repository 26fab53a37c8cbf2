import { Button, EmptyState } from "@mantine/core";
import { IconLock } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import type { SalesPageKey } from "./registry.ts";

/**
 * What a sales page shows to a role that may not open it: the route's guard (src/app's
 * RequireModule) and a page whose RPC refused (permission_denied) say it the same way.
 */
export function ModuleDenied({ module }: { module: SalesPageKey }) {
  const { t } = useTranslation();
  return (
    <EmptyState icon={<IconLock size={28} aria-hidden />} withIndicatorBackground py="xl">
      <EmptyState.Title order={1}>{t("permissions.deniedTitle", { module: t(`modules.${module}.title`) })}</EmptyState.Title>
      <EmptyState.Description>{t("permissions.deniedDescription")}</EmptyState.Description>
      <EmptyState.Actions>
        <Button component={Link} to="/" variant="default">
          {t("errorScreen.goHome")}
        </Button>
      </EmptyState.Actions>
    </EmptyState>
  );
}
