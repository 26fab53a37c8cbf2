/** The parts of the current user that decide what they may open (spec §6). */
export interface AccessSubject {
  role: string;
  /** Organization id → the user's role in that organization. */
  organization_role?: Record<string, string> | null;
}

/** Super admin status: the user's own role only. */
export function isSuperAdmin(user: AccessSubject): boolean {
  return user.role === "super_admin";
}

/**
 * Admin status: role admin or super_admin, or the admin role in the organization the session
 * works in. It only steers navigation; the database checks every admin call again.
 */
export function isAdmin(user: AccessSubject, organizationId: string | null | undefined): boolean {
  if (user.role === "admin" || isSuperAdmin(user)) return true;
  if (!organizationId) return false;
  return user.organization_role?.[organizationId] === "admin";
}
