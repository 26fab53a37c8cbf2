import { useTranslation } from "react-i18next";
import { Outlet } from "react-router-dom";
import { AccessDenied } from "@/components/AccessDenied.tsx";
import { LoadError } from "@/components/LoadError.tsx";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { useAccess } from "../api/use-access.ts";

interface Props {
  /** Super admins only (the organization manager and the super-admin switcher). */
  superAdmin?: boolean;
}

/**
 * Layout route of the admin group: renders its pages for an admin (or a super admin) and
 * shows anyone else the no-access page (AccessDenied: why, and the way home) at the address
 * they asked for. Navigation only: the database refuses every admin call of a non-admin again.
 */
export function RequireAdmin({ superAdmin = false }: Props) {
  const { t } = useTranslation();
  const access = useAccess();

  if (access.status === "pending") return <LoadingScreen />;
  if (access.status === "error") {
    return (
      <LoadError title={t("shell.contextLoadError")} onRetry={access.retry} />
    );
  }
  const allowed = superAdmin ? access.superAdmin : access.admin;
  if (!allowed) {
    return (
      <AccessDenied title={t("admin.denied.title")} description={t(superAdmin ? "admin.denied.superAdminOnly" : "admin.denied.adminOnly")} />
    );
  }
  return <Outlet />;
}

export function RequireSuperAdmin() {
  return <RequireAdmin superAdmin />;
}
