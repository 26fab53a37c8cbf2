import {
  IconAddressBook,
  IconBuilding,
  IconChecklist,
  IconContract,
  IconFileInvoice,
  IconFiles,
  IconHome,
  IconTargetArrow,
  IconTransfer,
  type Icon,
} from "@tabler/icons-react";

export type ModuleKey =
  | "customers"
  | "contacts"
  | "deals"
  | "quotes"
  | "contracts"
  | "documents"
  | "tasks"
  | "importExport";

export interface NavigationItem<Key extends string> {
  key: Key;
  path: string;
  icon: Icon;
}

/** The sales modules, in sidebar order (spec §2). */
export const moduleNavigation: NavigationItem<ModuleKey>[] = [
  { key: "customers", path: "/customers", icon: IconBuilding },
  { key: "contacts", path: "/contacts", icon: IconAddressBook },
  { key: "deals", path: "/deals", icon: IconTargetArrow },
  { key: "quotes", path: "/quotes", icon: IconFileInvoice },
  { key: "contracts", path: "/contracts", icon: IconContract },
  { key: "documents", path: "/documents", icon: IconFiles },
  { key: "tasks", path: "/tasks", icon: IconChecklist },
  { key: "importExport", path: "/import-export", icon: IconTransfer },
];

export const homeNavigation: NavigationItem<"home"> = { key: "home", path: "/", icon: IconHome };

/** Whether a sidebar entry is the current page (a module stays current on its detail pages). */
export function isCurrentPath(itemPath: string, pathname: string): boolean {
  if (itemPath === "/") return pathname === "/";
  return pathname === itemPath || pathname.startsWith(`${itemPath}/`);
}
