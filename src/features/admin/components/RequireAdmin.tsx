import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, Outlet } from "react-router-dom";
import { notifyFailure } from "@/components/notify.ts";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { useAccess } from "../api/use-access.ts";
import { LoadError } from "@/components/LoadError.tsx";

interface Props {
  /** Super admins only (the organization manager and the super-admin switcher). */
  superAdmin?: boolean;
}

/**
 * Layout route of the admin group: renders its pages for an admin (or a super admin) and
 * sends anyone else home with a notification. Navigation only: the database refuses every
 * admin call of a non-admin again.
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
  if (!allowed) return <Refused message={t(superAdmin ? "admin.denied.superAdminOnly" : "admin.denied.adminOnly")} />;
  return <Outlet />;
}

export function RequireSuperAdmin() {
  return <RequireAdmin superAdmin />;
}

function Refused({ message }: { message: string }) {
  const { t } = useTranslation();
  useEffect(() => {
    // A fixed id: shown once even when React runs the effect twice (StrictMode).
    notifyFailure(t("admin.denied.title"), message, "admin-access-denied");
  }, [message, t]);
  return <Navigate to="/" replace />;
}
