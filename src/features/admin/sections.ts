import {
  IconAdjustments,
  IconBuildingSkyscraper,
  IconDatabase,
  IconForms,
  IconHistory,
  IconSettings,
  IconSwitchHorizontal,
  IconTemplate,
  IconUserShield,
  IconUsers,
  type Icon,
} from "@tabler/icons-react";
import { lazyPage, type LazyPage } from "@/lib/lazy-page.ts";

/**
 * A path that is in no menu and also opens the organization manager (spec §2: "one further
 * hidden path"). It is still behind the super-admin guard; README documents it.
 */
export const hiddenOrganizationManagerPath = "/yonetim/sirketler";

export type AdminSectionKey =
  | "users"
  | "generalSettings"
  | "operationsSettings"
  | "roles"
  | "database"
  | "documentTemplates"
  | "customFields"
  | "auditLog"
  | "superAdminSwitcher"
  | "organizationManager";

export interface AdminSection {
  key: AdminSectionKey;
  path: string;
  icon: Icon;
  /** Only a super admin may open it (spec §6). */
  superAdminOnly: boolean;
  page: LazyPage;
  /** Further paths that open the page (in no menu). */
  aliases?: readonly string[];
  /** Older paths that lead to it. */
  redirectsFrom?: readonly string[];
}

/**
 * The admin group's pages (spec §2), in the order the panel and the sidebar list them; the
 * router derives their routes from this list.
 */
export const adminSections: AdminSection[] = [
  {
    key: "users",
    path: "/admin/users",
    icon: IconUsers,
    superAdminOnly: false,
    page: lazyPage(() => import("./routes/UsersPage.tsx"), "UsersPage"),
  },
  {
    key: "generalSettings",
    path: "/admin/general-settings",
    icon: IconSettings,
    superAdminOnly: false,
    page: lazyPage(() => import("./routes/GeneralSettingsPage.tsx"), "GeneralSettingsPage"),
  },
  {
    key: "operationsSettings",
    path: "/admin/operations-settings",
    icon: IconAdjustments,
    superAdminOnly: false,
    page: lazyPage(() => import("./routes/OperationsSettingsPage.tsx"), "OperationsSettingsPage"),
  },
  {
    key: "roles",
    path: "/admin/roles",
    icon: IconUserShield,
    superAdminOnly: false,
    page: lazyPage(() => import("./routes/RolesPage.tsx"), "RolesPage"),
    redirectsFrom: ["/admin/authorization", "/admin/modern-roles"],
  },
  {
    key: "database",
    path: "/admin/database",
    icon: IconDatabase,
    superAdminOnly: false,
    page: lazyPage(() => import("./routes/DatabasePage.tsx"), "DatabasePage"),
  },
  {
    key: "documentTemplates",
    path: "/admin/document-templates",
    icon: IconTemplate,
    superAdminOnly: false,
    page: lazyPage(() => import("./routes/DocumentTemplatesPage.tsx"), "DocumentTemplatesPage"),
  },
  {
    key: "customFields",
    path: "/admin/custom-fields",
    icon: IconForms,
    superAdminOnly: false,
    page: lazyPage(() => import("./routes/CustomFieldsPage.tsx"), "CustomFieldsPage"),
  },
  {
    key: "auditLog",
    path: "/admin/audit-log",
    icon: IconHistory,
    superAdminOnly: false,
    page: lazyPage(() => import("./routes/AuditLogPage.tsx"), "AuditLogPage"),
  },
  {
    key: "superAdminSwitcher",
    path: "/admin/super-admin-switcher",
    icon: IconSwitchHorizontal,
    superAdminOnly: true,
    page: lazyPage(() => import("./routes/SuperAdminSwitcherPage.tsx"), "SuperAdminSwitcherPage"),
  },
  {
    key: "organizationManager",
    path: "/admin/organization-manager",
    icon: IconBuildingSkyscraper,
    superAdminOnly: true,
    page: lazyPage(() => import("./routes/OrganizationManagerPage.tsx"), "OrganizationManagerPage"),
    aliases: ["/organization-manager", hiddenOrganizationManagerPath],
  },
];

export function visibleAdminSections(superAdmin: boolean): AdminSection[] {
  return adminSections.filter((section) => superAdmin || !section.superAdminOnly);
}
