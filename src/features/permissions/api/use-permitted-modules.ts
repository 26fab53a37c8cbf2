import { moduleNavigation } from "@/app/shell/navigation.ts";
import { canOpenModule } from "../utils/module-access.ts";
import { useMyPermissions } from "./permissions.ts";

/**
 * The modules (sidebar order) the signed-in user may open. Should the permissions fail to
 * load, every module is listed: each page checks again and its RPCs refuse anyway.
 */
export function usePermittedModules() {
  const permissions = useMyPermissions();
  const modules = permissions.isSuccess
    ? moduleNavigation.filter(({ key }) => canOpenModule(permissions.data.permissions, key))
    : moduleNavigation;
  return { pending: permissions.isPending, modules };
}
