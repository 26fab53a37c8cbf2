import type { ModuleKey } from "@/app/shell/navigation.ts";
import type { MyPermissions } from "../api/permissions.ts";

/**
 * Whether a sidebar module may be opened: a sales module needs its view permission; the
 * import/export page is for whoever may import or export in at least one module.
 */
export function canOpenModule(permissions: MyPermissions["permissions"], module: ModuleKey): boolean {
  if (module === "importExport") {
    return Object.values(permissions).some((actions) => actions.import !== undefined || actions.export !== undefined);
  }
  return permissions[module]?.view !== undefined;
}
