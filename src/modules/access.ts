import type { MyPermissions } from "./permissions.ts";
import { modules, type SalesPageKey } from "./registry.ts";

/**
 * Whether a sales page may be opened: a module needs its view permission; the import/export
 * page is for whoever may import or export in at least one module.
 */
export function canOpenModule(permissions: MyPermissions["permissions"], page: SalesPageKey): boolean {
  if (page === "importExport") {
    return modules.some(({ key }) => permissions[key]?.import !== undefined || permissions[key]?.export !== undefined);
  }
  return permissions[page]?.view !== undefined;
}
