import { canOpenModule } from "./access.ts";
import { useMyPermissions } from "./permissions.ts";
import { salesPages } from "./registry.ts";

/**
 * The sales pages (sidebar order) the signed-in user may open. Should the permissions fail to
 * load, every module is listed: each page checks again and its RPCs refuse anyway.
 */
export function usePermittedModules() {
  const permissions = useMyPermissions();
  const modules = permissions.isSuccess
    ? salesPages.filter(({ key }) => canOpenModule(permissions.data.permissions, key))
    : salesPages;
  return { pending: permissions.isPending, modules };
}
