import type { OrganizationUser } from "../api/schemas.ts";
import type { UserStatus } from "./list-params.ts";

/**
 * The status the list shows, as its status filter counts it: locked while a lock lasts;
 * inactive when the account or the membership is switched off; active otherwise.
 */
export function userStatus(user: Pick<OrganizationUser, "locked" | "is_active" | "membership_active">): UserStatus {
  if (user.locked) return "locked";
  if (!user.is_active || !user.membership_active) return "inactive";
  return "active";
}

