import { useTranslation } from "react-i18next";
import { AccessDenied } from "@/components/AccessDenied.tsx";
import type { SalesPageKey } from "./registry.ts";

/**
 * What a sales page shows to a role that may not open it: the route's guard (src/app's
 * RequireModule) and a page whose RPC refused (permission_denied) say it the same way, on the
 * one no-access page (AccessDenied) the admin pages use too.
 */
export function ModuleDenied({ module }: { module: SalesPageKey }) {
  const { t } = useTranslation();
  return (
    <AccessDenied title={t("permissions.deniedTitle", { module: t(`modules.${module}.title`) })} description={t("permissions.deniedDescription")} />
  );
}
