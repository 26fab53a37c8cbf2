import { Button, EmptyState } from "@mantine/core";
import { IconLock } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { Link, Outlet } from "react-router-dom";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { useMyPermissions } from "./permissions.ts";
import { canOpenModule } from "./access.ts";
import type { SalesPageKey } from "./registry.ts";
import { LoadError } from "@/components/LoadError.tsx";

/**
 * Layout route of one module's pages: renders them when the role may open the module and
 * says so plainly when it may not. Navigation only: the module's RPCs refuse again.
 */
export function RequireModule({ module }: { module: SalesPageKey }) {
  const { t } = useTranslation();
  const permissions = useMyPermissions();

  if (permissions.isPending) return <LoadingScreen />;
  // Only a first load that failed stops here; a failed refetch goes on with what it had (as
  // RequireAuth does; guarded by features/auth/components/RequireAuth.test.tsx).
  if (!permissions.data) {
    return (
      <LoadError title={t("permissions.loadError")} onRetry={() => void permissions.refetch()} />
    );
  }
  if (!canOpenModule(permissions.data.permissions, module)) return <ModuleDenied module={module} />;
  return <Outlet />;
}

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
