import type { TFunction } from "i18next";

const knownRoles = ["admin", "manager", "sales", "user", "viewer"] as const;
type KnownRole = (typeof knownRoles)[number];

/** The translated name of a membership role; a role the app does not know is shown as stored. */
export function organizationRoleLabel(t: TFunction, role: string): string {
  return knownRoles.includes(role as KnownRole) ? t(`organizations.roles.${role as KnownRole}`) : role;
}
