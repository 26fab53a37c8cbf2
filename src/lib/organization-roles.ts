import type { TFunction } from "i18next";

/** The roles a member can hold in an organization (labels: organizations.roles.*). */
export const organizationRoles = ["admin", "manager", "sales", "user", "viewer"] as const;
export type OrganizationRole = (typeof organizationRoles)[number];

export function isOrganizationRole(value: string | null): value is OrganizationRole {
  return organizationRoles.includes(value as OrganizationRole);
}

/** The translated name of a membership role; a role the app does not know is shown as stored. */
export function organizationRoleLabel(t: TFunction, role: string): string {
  return isOrganizationRole(role) ? t(`organizations.roles.${role}`) : role;
}
