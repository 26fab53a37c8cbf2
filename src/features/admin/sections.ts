import {
  IconAdjustments,
  IconBuildingSkyscraper,
  IconDatabase,
  IconHistory,
  IconSettings,
  IconSwitchHorizontal,
  IconTemplate,
  IconUserShield,
  IconUsers,
  type Icon,
} from "@tabler/icons-react";

export type AdminSectionKey =
  | "users"
  | "generalSettings"
  | "operationsSettings"
  | "roles"
  | "database"
  | "documentTemplates"
  | "auditLog"
  | "superAdminSwitcher"
  | "organizationManager";

export interface AdminSection {
  key: AdminSectionKey;
  path: string;
  icon: Icon;
  /** Only a super admin may open it (spec §6). */
  superAdminOnly: boolean;
}

/** The admin group's pages (spec §2), in the order the panel and the sidebar list them. */
export const adminSections: AdminSection[] = [
  { key: "users", path: "/admin/users", icon: IconUsers, superAdminOnly: false },
  { key: "generalSettings", path: "/admin/general-settings", icon: IconSettings, superAdminOnly: false },
  { key: "operationsSettings", path: "/admin/operations-settings", icon: IconAdjustments, superAdminOnly: false },
  { key: "roles", path: "/admin/roles", icon: IconUserShield, superAdminOnly: false },
  { key: "database", path: "/admin/database", icon: IconDatabase, superAdminOnly: false },
  { key: "documentTemplates", path: "/admin/document-templates", icon: IconTemplate, superAdminOnly: false },
  { key: "auditLog", path: "/admin/audit-log", icon: IconHistory, superAdminOnly: false },
  { key: "superAdminSwitcher", path: "/admin/super-admin-switcher", icon: IconSwitchHorizontal, superAdminOnly: true },
  { key: "organizationManager", path: "/admin/organization-manager", icon: IconBuildingSkyscraper, superAdminOnly: true },
];

export function visibleAdminSections(superAdmin: boolean): AdminSection[] {
  return adminSections.filter((section) => superAdmin || !section.superAdminOnly);
}
