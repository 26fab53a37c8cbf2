import { useTranslation } from "react-i18next";
import { Outlet } from "react-router-dom";
import { LoadError } from "@/components/LoadError.tsx";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { canOpenModule } from "@/modules/access.ts";
import { ModuleDenied } from "@/modules/ModuleDenied.tsx";
import { useMyPermissions } from "@/modules/permissions.ts";
import type { SalesPageKey } from "@/modules/registry.ts";

/**
 * Layout route of one module's pages: renders them when the role may open the module and
 * says so plainly when it may not. Navigation only: the module's RPCs refuse again.
 */
export function RequireModule({ module }: { module: SalesPageKey }) {
  const { t } = useTranslation();
  const permissions = useMyPermissions();

  if (permissions.isPending) return <LoadingScreen />;
  // Only a first load that failed stops here; a failed refetch goes on with what it had (as
  // RequireAuth does; guarded by src/app/signed-in-gates.test.tsx).
  if (!permissions.data) {
    return (
      <LoadError title={t("permissions.loadError")} onRetry={() => void permissions.refetch()} />
    );
  }
  if (!canOpenModule(permissions.data.permissions, module)) return <ModuleDenied module={module} />;
  return <Outlet />;
}
